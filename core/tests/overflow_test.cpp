// A stack overflow in a coroutine dies on the guard page with a clear
// message, instead of corrupting memory.
#include "test_host.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <thread>

namespace {

#if defined(__clang__)
__attribute__((optnone))
#else
__attribute__((optimize("O0")))
#endif
int recurse(int depth) {
    volatile char buf[512];
    buf[0] = static_cast<char>(depth);
    // Unbounded on purpose: it ends on the guard page. The condition only
    // tells the compiler so.
    if (depth < 0) return buf[0];
    return recurse(depth + 1) + buf[0];
}

void overflow_in_coroutine() {
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    o.stack_size = 64 * 1024;
    tasync_runtime_t *rt = nullptr;
    if (tasync_runtime_create(&o, &rt) != 0) std::abort();
    tasync_spawn_options_t so{};
    so.size = sizeof(so);
    so.entry = [](tasync_coroutine_t *, void *) { recurse(0); };
    tasync_spawn(rt, &so, nullptr, nullptr);
    tasync_runtime_run(rt);
}

}  // namespace

TEST(OverflowDeathTest, StackOverflowHitsTheGuardPage) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(overflow_in_coroutine(), "stack overflow in coroutine 1.*guard page");
}

// Rule C26: signals the runtime does not own keep their meaning. A SIGSEGV
// that no fault raised (kill, sigqueue) and a fault outside the guard
// region go to the disposition that was there before the runtime: in a
// sanitizer build that is the sanitizer's handler, which reports and exits.
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitizerHandlesSegv = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitizerHandlesSegv = true;
#else
constexpr bool kSanitizerHandlesSegv = false;
#endif
#else
constexpr bool kSanitizerHandlesSegv = false;
#endif

// Dies of SIGSEGV, or (sanitizer build) exits through the sanitizer's report
// or dies of a signal while the sanitizer reports (its handler runs on the
// faulting coroutine's stack; CI once saw it end that way under io_uring).
// Never a normal exit: the fault is not swallowed.
bool died_of_segv(int status) {
    if (kSanitizerHandlesSegv) return (WIFEXITED(status) && WEXITSTATUS(status) != 0) || WIFSIGNALED(status);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
}

// Runs body in a coroutine of a fresh runtime, then destroys it.
void in_coroutine(void (*body)()) {
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    tasync_runtime_t *rt = nullptr;
    if (tasync_runtime_create(&o, &rt) != 0) std::abort();
    tasync_spawn_options_t so{};
    so.size = sizeof(so);
    so.entry = [](tasync_coroutine_t *, void *arg) { reinterpret_cast<void (*)()>(arg)(); };
    so.arg = reinterpret_cast<void *>(body);
    tasync_spawn(rt, &so, nullptr, nullptr);
    tasync_runtime_run(rt);
    tasync_runtime_destroy(rt);
}

void say_and_exit(const char *what, int code) {
    ssize_t r = write(STDERR_FILENO, what, std::strlen(what));
    (void)r;
    _exit(code);
}

bool same_disposition(const struct sigaction &a, const struct sigaction &b) {
    if ((a.sa_flags & SA_SIGINFO) != (b.sa_flags & SA_SIGINFO)) return false;
    return (a.sa_flags & SA_SIGINFO) ? a.sa_sigaction == b.sa_sigaction : a.sa_handler == b.sa_handler;
}

}  // namespace

TEST(OverflowDeathTest, SentSigsegvKillsTheProcess) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            in_coroutine([] { kill(getpid(), SIGSEGV); });
            say_and_exit("the signal was swallowed\n", 0);
        },
        died_of_segv, "");
}

TEST(OverflowDeathTest, QueuedSigsegvKillsTheProcess) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            in_coroutine([] {
                union sigval v;
                v.sival_int = 0;
                sigqueue(getpid(), SIGSEGV, v);
            });
            say_and_exit("the signal was swallowed\n", 0);
        },
        died_of_segv, "");
}

TEST(OverflowDeathTest, SigbusSentToAThreadKillsTheProcess) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            in_coroutine([] { raise(SIGBUS); });
            say_and_exit("the signal was swallowed\n", 0);
        },
        [](int status) {
            return kSanitizerHandlesSegv ? WIFEXITED(status) || WIFSIGNALED(status)
                                         : WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS;
        },
        "");
}

TEST(OverflowDeathTest, FaultOutsideTheGuardRegionIsAPlainCrash) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            in_coroutine([] {
                volatile int *volatile p = nullptr;
                *p = 1;
            });
            say_and_exit("the fault was swallowed\n", 0);
        },
        died_of_segv, kSanitizerHandlesSegv ? "" : "^$");
}

TEST(OverflowDeathTest, SentSigsegvReachesThePreviousHandler) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            struct sigaction sa;
            std::memset(&sa, 0, sizeof(sa));
            sa.sa_flags = SA_SIGINFO;
            sa.sa_sigaction = [](int sig, siginfo_t *si, void *) {
                if (sig == SIGSEGV && si->si_code == SI_USER) say_and_exit("previous handler ran\n", 42);
                say_and_exit("previous handler got something else\n", 43);
            };
            sigemptyset(&sa.sa_mask);
            sigaction(SIGSEGV, &sa, nullptr);
            in_coroutine([] { kill(getpid(), SIGSEGV); });
            say_and_exit("the signal was swallowed\n", 0);
        },
        testing::ExitedWithCode(42), "previous handler ran");
}

TEST(OverflowDeathTest, IgnoredSentSigsegvStaysIgnored) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            signal(SIGSEGV, SIG_IGN);
            in_coroutine([] { kill(getpid(), SIGSEGV); });
            say_and_exit("ignored, as before\n", 7);
        },
        testing::ExitedWithCode(7), "ignored, as before");
}

TEST(OverflowHandler, DispositionsComeBackWhenTheLastRuntimeGoes) {
    struct sigaction before_segv, before_bus, during, after;
    stack_t before_stack;
    ASSERT_EQ(sigaltstack(nullptr, &before_stack), 0);
    sigaction(SIGSEGV, nullptr, &before_segv);
    sigaction(SIGBUS, nullptr, &before_bus);

    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    tasync_runtime_t *rt = nullptr;
    ASSERT_EQ(tasync_runtime_create(&o, &rt), 0);
    sigaction(SIGSEGV, nullptr, &during);
    EXPECT_FALSE(same_disposition(before_segv, during));

    // A second thread's runtime shares the handler; it stays until both go.
    std::thread other([] {
        tasync_runtime_options_t o2{};
        o2.size = sizeof(o2);
        tasync_runtime_t *rt2 = nullptr;
        ASSERT_EQ(tasync_runtime_create(&o2, &rt2), 0);
        tasync_runtime_destroy(rt2);
    });
    other.join();
    struct sigaction still;
    sigaction(SIGSEGV, nullptr, &still);
    EXPECT_TRUE(same_disposition(during, still));

    tasync_runtime_destroy(rt);
    sigaction(SIGSEGV, nullptr, &after);
    EXPECT_TRUE(same_disposition(before_segv, after));
    sigaction(SIGBUS, nullptr, &after);
    EXPECT_TRUE(same_disposition(before_bus, after));
    stack_t ss;
    ASSERT_EQ(sigaltstack(nullptr, &ss), 0);
    EXPECT_EQ(ss.ss_flags & SS_DISABLE, before_stack.ss_flags & SS_DISABLE) << "the alternate signal stack is as it was";
    EXPECT_EQ(ss.ss_sp, before_stack.ss_sp);
}
