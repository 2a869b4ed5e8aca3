// Signals (docs/architecture.md, "Timers, signals and child exits", rule C26): the core's one
// process-wide registry, the same on every backend. A delivery reaches every
// coroutine waiting for it, in every runtime of the process, whichever
// thread the kernel picks; a handler installed before (PHP's pcntl one, for
// instance) still runs; no signal is ever blocked, and once the last watch
// of a signal ends its previous disposition is back, exactly, so that
// forked children and the programs they exec see plain PHP's.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "test_host.hpp"

extern char **environ;

using namespace tasync_test;

namespace {

class Signals : public RuntimeTest {
protected:
    // A coroutine that waits for signum once, counting it in *got.
    void wait_once(int signum, int *got = nullptr) {
        go([this, signum, got](tasync_coroutine_t *) {
            EXPECT_EQ(tasync_await_signal(rt, signum, nullptr, nullptr), 0);
            if (got != nullptr) ++*got;
        });
    }
    // A coroutine that sends signum to the process, once the coroutines
    // spawned before it wait.
    void send_soon(int signum) {
        go([this, signum](tasync_coroutine_t *) {
            tasync_delay(rt, 2 * kMs, nullptr, nullptr);
            kill(getpid(), signum);
        });
    }
};

std::atomic<int> g_previous_calls{0};
std::atomic<int> g_previous_info_calls{0};
std::atomic<int> g_previous_signum{0};

void previous_handler(int signum) {
    g_previous_calls.fetch_add(1);
    g_previous_signum.store(signum);
}

void previous_info_handler(int signum, siginfo_t *info, void *) {
    // pcntl installs its handler with SA_SIGINFO and reads si_pid and the like.
    if (info != nullptr && info->si_signo == signum) g_previous_info_calls.fetch_add(1);
}

struct sigaction current_action(int signum) {
    struct sigaction sa {};
    sigaction(signum, nullptr, &sa);
    return sa;
}

bool same_action(const struct sigaction &a, const struct sigaction &b) {
    if (a.sa_handler != b.sa_handler || a.sa_flags != b.sa_flags) return false;
    for (int s = 1; s < NSIG; s++) {
        if (sigismember(&a.sa_mask, s) != sigismember(&b.sa_mask, s)) return false;
    }
    return true;
}

std::string mask_text(const sigset_t &set) {
    std::string s;
    for (int i = 1; i < NSIG; i++) s += sigismember(&set, i) == 1 ? '1' : '0';
    return s;
}

sigset_t thread_mask() {
    sigset_t set;
    sigemptyset(&set);
    pthread_sigmask(SIG_BLOCK, nullptr, &set);
    return set;
}

// Restores a signal's disposition when the test ends, whatever happened.
class SavedAction {
public:
    explicit SavedAction(int signum) : signum_(signum) { sigaction(signum, nullptr, &saved_); }
    ~SavedAction() { sigaction(signum_, &saved_, nullptr); }
    const struct sigaction &saved() const { return saved_; }

private:
    int signum_;
    struct sigaction saved_ {};
};

void install(int signum, void (*fn)(int)) {
    struct sigaction sa {};
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR2);  // a mask of its own, to be kept
    sa.sa_flags = SA_RESTART;
    ASSERT_EQ(sigaction(signum, &sa, nullptr), 0);
}

// A runtime of its own, for another thread.
struct ThreadRuntime {
    TestHost host;
    tasync_runtime_t *rt = nullptr;
    ThreadRuntime() {
        tasync_runtime_options_t o{};
        o.size = sizeof(o);
        const char *b = std::getenv("TASYNC_TEST_BACKEND");
        o.backend = b != nullptr && *b != '\0' ? b : "uv";
        o.host = &host.table;
        o.host_data = &host;
        EXPECT_EQ(tasync_runtime_create(&o, &rt), 0);
    }
    ~ThreadRuntime() {
        if (rt != nullptr) tasync_runtime_destroy(rt);
    }
    void go(std::function<void()> f) {
        auto *fn = new std::function<void()>(std::move(f));
        tasync_spawn_options_t o{};
        o.size = sizeof(o);
        o.entry = [](tasync_coroutine_t *, void *arg) { (*static_cast<std::function<void()> *>(arg))(); };
        o.arg = fn;
        o.arg_release = [](void *arg) { delete static_cast<std::function<void()> *>(arg); };
        tasync_coroutine_t *co = nullptr;
        EXPECT_EQ(tasync_spawn(rt, &o, &co, nullptr), 0);
        tasync_coroutine_release(co);
    }
};

// Makes the runtime watch signum without waiting: a wait whose cancellation
// has already completed still opens the watch, which stays (deliveries from
// now on are counted).
void prime_watch(tasync_runtime_t *rt, int signum) {
    tasync_awaitable_t *done = nullptr;
    ASSERT_EQ(tasync_future_create(rt, &done), 0);
    ASSERT_EQ(tasync_future_resolve(done, nullptr), 0);
    void *e = nullptr;
    EXPECT_EQ(tasync_await_signal(rt, signum, done, &e), TASYNC_EAWAIT_CANCELLED);
    if (e != nullptr) tasync_error_release(rt, e);
    tasync_awaitable_release(done);
}

// Waits (in real time) until pred holds or about 5 s passed.
bool eventually(const std::function<bool()> &pred) {
    for (int i = 0; i < 5000 && !pred(); i++) usleep(1000);
    return pred();
}

// The SigBlk/SigIgn/SigCgt lines of a program run with posix_spawn, which
// has the dispositions and mask an exec'd child of this thread gets.
std::string exec_child_signal_state() {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return "pipe failed";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
    char arg0[] = "cat", arg1[] = "/proc/self/status";
    char *argv[] = {arg0, arg1, nullptr};
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, "/bin/cat", &fa, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    std::string all;
    char buf[4096];
    ssize_t n;
    while ((n = read(p[0], buf, sizeof(buf))) > 0) all.append(buf, static_cast<std::size_t>(n));
    close(p[0]);
    if (rc != 0) return "posix_spawn failed";
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    std::string state;
    std::size_t pos = 0;
    while (pos < all.size()) {
        std::size_t end = all.find('\n', pos);
        if (end == std::string::npos) end = all.size();
        const std::string line = all.substr(pos, end - pos);
        if (line.rfind("SigBlk:", 0) == 0 || line.rfind("SigIgn:", 0) == 0 || line.rfind("SigCgt:", 0) == 0)
            state += line + "\n";
        pos = end + 1;
    }
    return state;
}

}  // namespace

TEST_F(Signals, DeliveredToTheWaitingCoroutine) {
    go([&](tasync_coroutine_t *) {
        EXPECT_EQ(tasync_await_signal(rt, SIGUSR1, nullptr, nullptr), 0);
        out.push_back("got SIGUSR1");
    });
    send_soon(SIGUSR1);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"got SIGUSR1"}));
}

TEST_F(Signals, DeliveryWhileNobodyWaitsIsNotLost) {
    int got = 0;
    go([&](tasync_coroutine_t *) {
        for (int i = 0; i < 2; ++i) {
            EXPECT_EQ(tasync_await_signal(rt, SIGUSR2, nullptr, nullptr), 0);
            ++got;
            if (i == 0) {
                kill(getpid(), SIGUSR2);  // arrives before the next wait
                tasync_delay(rt, 5 * kMs, nullptr, nullptr);
            }
        }
    });
    send_soon(SIGUSR2);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(got, 2);
}

TEST_F(Signals, EveryCoroutineWaitingForTheSignalIsWoken) {
    int woken = 0;
    for (int i = 0; i < 3; i++) {
        go([&](tasync_coroutine_t *) {
            EXPECT_EQ(tasync_await_signal(rt, SIGUSR1, nullptr, nullptr), 0);
            ++woken;
        });
    }
    send_soon(SIGUSR1);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(woken, 3);
}

TEST_F(Signals, WaitIsCancellable) {
    tasync_awaitable_t *t = nullptr;
    ASSERT_EQ(tasync_timeout_create(rt, 5 * kMs, &t), 0);
    void *e = nullptr;
    EXPECT_EQ(tasync_await_signal(rt, SIGUSR2, t, &e), TASYNC_EAWAIT_CANCELLED);
    host.release(static_cast<Error *>(e));
    tasync_awaitable_release(t);
    EXPECT_EQ(run(), 0);
}

TEST_F(Signals, SignalsThatCannotBeWatchedAreRefused) {
    for (int signum : {0, -1, SIGKILL, SIGSTOP, SIGSEGV, SIGBUS, SIGFPE, SIGILL, 32, 33, NSIG, 1000}) {
        void *e = nullptr;
        EXPECT_EQ(tasync_await_signal(rt, signum, nullptr, &e), -EINVAL) << "signal " << signum;
        host.release(static_cast<Error *>(e));
    }
    EXPECT_EQ(run(), 0);
}

TEST_F(Signals, C26_ChainsToTheHandlerInstalledBeforeAndGivesItBack) {
    SavedAction saved(SIGUSR1);
    ASSERT_NO_FATAL_FAILURE(install(SIGUSR1, previous_handler));
    const struct sigaction before = current_action(SIGUSR1);
    g_previous_calls = 0;
    int got = 0;
    wait_once(SIGUSR1, &got);
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 2 * kMs, nullptr, nullptr);
        EXPECT_FALSE(same_action(current_action(SIGUSR1), before)) << "the registry's handler is in place";
        kill(getpid(), SIGUSR1);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(got, 1);
    EXPECT_EQ(g_previous_calls.load(), 1) << "C26: the handler installed before still runs";
    EXPECT_EQ(g_previous_signum.load(), SIGUSR1);
    tasync_runtime_destroy(rt);
    rt = nullptr;
    EXPECT_TRUE(same_action(current_action(SIGUSR1), before)) << "C26: the previous handler is back, exactly";
    kill(getpid(), SIGUSR1);
    EXPECT_EQ(g_previous_calls.load(), 2) << "and runs alone";
    create(nullptr);  // for TearDown
}

TEST_F(Signals, C26_ChainsToASiginfoHandlerLikePcntls) {
    SavedAction saved(SIGUSR2);
    struct sigaction sa {};
    sa.sa_sigaction = previous_info_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    ASSERT_EQ(sigaction(SIGUSR2, &sa, nullptr), 0);
    g_previous_info_calls = 0;
    int got = 0;
    go([&](tasync_coroutine_t *) {
        for (int i = 0; i < 2; i++) {
            EXPECT_EQ(tasync_await_signal(rt, SIGUSR2, nullptr, nullptr), 0);
            ++got;
        }
    });
    go([&](tasync_coroutine_t *) {
        for (int i = 0; i < 2; i++) {
            tasync_delay(rt, 2 * kMs, nullptr, nullptr);
            kill(getpid(), SIGUSR2);
        }
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(got, 2);
    EXPECT_EQ(g_previous_info_calls.load(), 2) << "C26: called with its siginfo for every delivery";
    tasync_runtime_destroy(rt);
    rt = nullptr;
    const struct sigaction after = current_action(SIGUSR2);
    EXPECT_EQ(after.sa_sigaction, previous_info_handler);
    EXPECT_EQ(after.sa_flags & (SA_SIGINFO | SA_ONSTACK | SA_RESTART), SA_SIGINFO | SA_ONSTACK | SA_RESTART);
    create(nullptr);
}

TEST_F(Signals, C26_DispositionsAndMasksAreLeftAsTheyWere) {
    SavedAction saved(SIGUSR1);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ASSERT_EQ(sigaction(SIGUSR1, &dfl, nullptr), 0);
    const struct sigaction before = current_action(SIGUSR1);
    const std::string mask_before = mask_text(thread_mask());
    std::string mask_while, other_thread_mask;
    wait_once(SIGUSR1);
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 2 * kMs, nullptr, nullptr);
        mask_while = mask_text(thread_mask());
        std::thread([&] { other_thread_mask = mask_text(thread_mask()); }).join();
        kill(getpid(), SIGUSR1);  // caught, not the default action (which ends the process)
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(mask_while, mask_before) << "C26: no signal is blocked while watched";
    EXPECT_EQ(other_thread_mask, mask_before) << "C26: threads created while watching inherit the plain mask";
    tasync_runtime_destroy(rt);
    rt = nullptr;
    EXPECT_TRUE(same_action(current_action(SIGUSR1), before)) << "C26: SIG_DFL is back after the last watch";
    EXPECT_EQ(mask_text(thread_mask()), mask_before);
    create(nullptr);
}

TEST_F(Signals, C26_AnIgnoredSignalIsIgnoredAgainAfterTheLastWatch) {
    SavedAction saved(SIGHUP);
    struct sigaction ign {};
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    ASSERT_EQ(sigaction(SIGHUP, &ign, nullptr), 0);
    int got = 0;
    wait_once(SIGHUP, &got);
    send_soon(SIGHUP);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(got, 1) << "seen while watched";
    tasync_runtime_destroy(rt);
    rt = nullptr;
    EXPECT_EQ(current_action(SIGHUP).sa_handler, SIG_IGN);
    kill(getpid(), SIGHUP);  // ignored again, not fatal
    create(nullptr);
}

TEST_F(Signals, C26_AProgramExecutedWhileWatchingSeesPlainDispositionsAndMask) {
    SavedAction saved(SIGUSR1);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ASSERT_EQ(sigaction(SIGUSR1, &dfl, nullptr), 0);
    const std::string plain = exec_child_signal_state();
    ASSERT_NE(plain.find("SigBlk:"), std::string::npos) << plain;
    std::string watching;
    wait_once(SIGUSR1);
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 2 * kMs, nullptr, nullptr);
        watching = exec_child_signal_state();
        kill(getpid(), SIGUSR1);
    });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(watching, plain) << "C26: an exec'd program saw other dispositions or another mask";
}

TEST_F(Signals, C26_AHandlerInstalledOverTheRegistrysStaysAfterTheLastWatch) {
    SavedAction saved(SIGUSR2);
    wait_once(SIGUSR2);
    send_soon(SIGUSR2);
    EXPECT_EQ(run(), 0);
    // pcntl_signal() after the watch began: its handler replaces the
    // registry's and must survive the end of the watch.
    ASSERT_NO_FATAL_FAILURE(install(SIGUSR2, previous_handler));
    const struct sigaction theirs = current_action(SIGUSR2);
    tasync_runtime_destroy(rt);
    rt = nullptr;
    EXPECT_TRUE(same_action(current_action(SIGUSR2), theirs)) << "the later handler was taken away";
    create(nullptr);
}

namespace {
// A handler installed over the registry's that chains back to what it
// replaced, as a well-behaved library does.
struct sigaction g_chained_old;
std::atomic<int> g_chaining_calls{0};
void chaining_handler(int signum, siginfo_t *info, void *ctx) {
    g_chaining_calls.fetch_add(1);
    if (g_chained_old.sa_flags & SA_SIGINFO) g_chained_old.sa_sigaction(signum, info, ctx);
    else if (g_chained_old.sa_handler != SIG_DFL && g_chained_old.sa_handler != SIG_IGN) g_chained_old.sa_handler(signum);
}
}  // namespace

TEST_F(Signals, C26_AChainThroughALaterHandlerDoesNotLoop) {
    // The registry's handler is replaced by one that chains to it; the last
    // watch ends (that handler stays); a new watch installs the registry's
    // handler over it again, chaining to it, which chains back: each runs
    // once per delivery.
    SavedAction saved(SIGUSR1);
    wait_once(SIGUSR1);
    send_soon(SIGUSR1);
    EXPECT_EQ(run(), 0);
    struct sigaction sa {};
    sa.sa_sigaction = chaining_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    ASSERT_EQ(sigaction(SIGUSR1, &sa, &g_chained_old), 0);
    tasync_runtime_destroy(rt);
    rt = nullptr;
    create(nullptr);
    g_chaining_calls = 0;
    int got = 0;
    wait_once(SIGUSR1, &got);
    send_soon(SIGUSR1);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(got, 1);
    EXPECT_EQ(g_chaining_calls.load(), 1) << "the later handler ran once for one delivery";
}

// Several runtimes on several threads watch the same signal: each sees each
// delivery, whichever thread the kernel gives it to (one of them blocks the
// signal, so the kernel picks another one).
TEST(SignalsAcrossThreads, EveryRuntimeSeesEveryDelivery) {
    constexpr int kThreads = 3, kRounds = 4;
    std::atomic<int> got[kThreads] = {};
    std::atomic<int> waiting[kThreads] = {};
    std::atomic<bool> failed{false};
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; i++) {
        threads.emplace_back([&, i] {
            if (i == 0) {
                sigset_t set;
                sigemptyset(&set);
                sigaddset(&set, SIGUSR2);
                pthread_sigmask(SIG_BLOCK, &set, nullptr);
            }
            ThreadRuntime r;
            if (r.rt == nullptr) {
                failed = true;
                return;
            }
            r.go([&, i, rt = r.rt] {
                prime_watch(rt, SIGUSR2);
                for (int k = 0; k < kRounds; k++) {
                    waiting[i] = k + 1;
                    if (tasync_await_signal(rt, SIGUSR2, nullptr, nullptr) != 0) failed = true;
                    got[i]++;
                }
            });
            if (tasync_runtime_run(r.rt) != 0) failed = true;
        });
    }
    for (int k = 1; k <= kRounds; k++) {
        // Every runtime waits for delivery k (coalesced sends would count once).
        ASSERT_TRUE(eventually([&] {
            for (auto &w : waiting) {
                if (w.load() < k) return false;
            }
            return true;
        }));
        kill(getpid(), SIGUSR2);
        EXPECT_TRUE(eventually([&] {
            for (auto &g : got) {
                if (g.load() < k) return false;
            }
            return true;
        })) << "delivery " << k << " missed a runtime";
        if (testing::Test::HasFailure()) break;
    }
    if (testing::Test::HasFailure()) {
        for (int i = 0; i < kRounds * kThreads; i++) kill(getpid(), SIGUSR2);  // let them end
    }
    for (std::thread &t : threads) t.join();
    EXPECT_FALSE(failed.load());
    for (auto &g : got) EXPECT_EQ(g.load(), kRounds);
}

// Runtimes of two threads watch different signals: each sees its own only.
TEST(SignalsAcrossThreads, EachRuntimeSeesOnlyTheSignalsItWatches) {
    const int signums[2] = {SIGUSR1, SIGUSR2};
    std::atomic<int> got[2] = {};
    std::atomic<bool> ready[2] = {};
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    for (int i = 0; i < 2; i++) {
        threads.emplace_back([&, i] {
            ThreadRuntime r;
            r.go([&, i, rt = r.rt] {
                prime_watch(rt, signums[i]);
                ready[i] = true;
                while (!stop) {
                    tasync_awaitable_t *t = nullptr;
                    tasync_timeout_create(rt, 20 * kMs, &t);
                    void *e = nullptr;
                    if (tasync_await_signal(rt, signums[i], t, &e) == 0) got[i]++;
                    tasync_awaitable_release(t);
                    if (e != nullptr) tasync_error_release(rt, e);
                }
            });
            tasync_runtime_run(r.rt);
        });
    }
    ASSERT_TRUE(eventually([&] { return ready[0] && ready[1]; }));
    for (int round = 1; round <= 3; round++) {
        for (int i = 0; i < 2; i++) {
            const int before = got[i].load();
            kill(getpid(), signums[i]);
            EXPECT_TRUE(eventually([&] { return got[i].load() > before; })) << "signal " << signums[i] << " lost";
        }
    }
    usleep(30000);
    stop = true;
    for (std::thread &t : threads) t.join();
    EXPECT_EQ(got[0].load(), 3);
    EXPECT_EQ(got[1].load(), 3);
}

TEST_F(Signals, ASignalTakenByAThreadWithoutARuntimeReachesTheRuntime) {
    std::atomic<bool> stop{false};
    pthread_t helper_id{};
    std::atomic<bool> helper_ready{false};
    std::thread helper([&] {
        helper_id = pthread_self();
        helper_ready = true;
        while (!stop) usleep(1000);
    });
    ASSERT_TRUE(eventually([&] { return helper_ready.load(); }));
    int got = 0;
    wait_once(SIGUSR1, &got);
    go([&](tasync_coroutine_t *) {
        tasync_delay(rt, 2 * kMs, nullptr, nullptr);
        pthread_kill(helper_id, SIGUSR1);
    });
    EXPECT_EQ(run(), 0);
    stop = true;
    helper.join();
    EXPECT_EQ(got, 1);
}

TEST_F(Signals, AWatchGoesOnInAForkedChildAndInTheParent) {
    int parent_got = 0;
    pid_t pid = -1;
    go([&](tasync_coroutine_t *) {
        // Watched before the fork.
        EXPECT_EQ(tasync_await_signal(rt, SIGUSR2, nullptr, nullptr), 0);
        pid = fork();
        if (pid == 0) {
            tasync_awaitable_t *t = nullptr;
            tasync_timeout_create(rt, 5000 * kMs, &t);
            kill(getpid(), SIGUSR2);
            const int rc = tasync_await_signal(rt, SIGUSR2, t, nullptr);
            _exit(rc == 0 ? 0 : 1);
        }
        int status = -1;
        while (waitpid(pid, &status, WNOHANG) == 0) tasync_delay(rt, 1 * kMs, nullptr, nullptr);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child did not get its signal";
        kill(getpid(), SIGUSR2);
        EXPECT_EQ(tasync_await_signal(rt, SIGUSR2, nullptr, nullptr), 0);
        ++parent_got;
    });
    send_soon(SIGUSR2);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(parent_got, 1);
}

// C26: a handler installed over the registry's while the runtime watches
// the signal (PHP's pcntl_signal() does that) would take every delivery
// from the waiting coroutines; tasync_signal_reclaim puts the registry's
// back in front, chaining to it, and at the end the handler installed last
// is what the signal keeps.
TEST_F(Signals, C26_ReclaimPutsTheRuntimesHandlerBackInFrontOfANewOne) {
    SavedAction saved(SIGUSR1);
    EXPECT_EQ(tasync_signal_reclaim(SIGUSR1), -ENOENT) << "nobody watches it yet";
    EXPECT_EQ(tasync_signal_reclaim(SIGKILL), -EINVAL);
    ASSERT_NO_FATAL_FAILURE(prime_watch(rt, SIGUSR1));
    ASSERT_NO_FATAL_FAILURE(install(SIGUSR1, previous_handler));  // over the registry's
    const struct sigaction theirs = current_action(SIGUSR1);
    EXPECT_EQ(tasync_signal_reclaim(SIGUSR1), 0);
    EXPECT_FALSE(same_action(current_action(SIGUSR1), theirs)) << "the registry's handler is in front again";
    EXPECT_EQ(tasync_signal_reclaim(SIGUSR1), 0) << "a second call changes nothing";
    g_previous_calls = 0;
    int got = 0;
    go([&](tasync_coroutine_t *) {
        // Bounded: without the reclaim the delivery never reaches the wait.
        tasync_awaitable_t *limit = nullptr;
        ASSERT_EQ(tasync_timeout_create(rt, 5000 * kMs, &limit), 0);
        void *e = nullptr;
        EXPECT_EQ(tasync_await_signal(rt, SIGUSR1, limit, &e), 0);
        if (e != nullptr) host.release(static_cast<Error *>(e));
        tasync_awaitable_release(limit);
        ++got;
    });
    send_soon(SIGUSR1);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(got, 1) << "C26: the waiting coroutine got the delivery";
    EXPECT_EQ(g_previous_calls.load(), 1) << "C26: and the handler installed last ran too, once";
    tasync_runtime_destroy(rt);
    rt = nullptr;
    EXPECT_TRUE(same_action(current_action(SIGUSR1), theirs)) << "C26: the handler installed last is what stays";
    create(nullptr);
}
