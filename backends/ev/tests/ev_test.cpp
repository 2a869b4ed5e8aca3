// What is particular to tasync-backend-ev: how it presents itself, what
// libev cannot express, and its process-wide signal handler, which must
// chain to the handler it replaced (PHP's pcntl, for one) and give the
// signal back when the last watch ends.
#include <signal.h>
#include <sys/syscall.h>

#include <atomic>
#include <cerrno>
#include <string>

#include "backend_fixture.hpp"

using namespace backend_test;

namespace {

class Ev : public LoopTest {};
class ProcessSignals : public LoopTest {};

std::atomic<int> g_previous_calls{0};

void previous_handler(int, siginfo_t *, void *) { g_previous_calls.fetch_add(1); }

bool handler_is(int signum, void (*fn)(int, siginfo_t *, void *)) {
    struct sigaction cur {};
    sigaction(signum, nullptr, &cur);
    return (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == fn;
}

bool disposition_is(int signum, void (*fn)(int)) {
    struct sigaction cur {};
    sigaction(signum, nullptr, &cur);
    return !(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == fn;
}

}  // namespace

TEST_F(Ev, PresentsItselfAsLibev) {
    EXPECT_STREQ(t->name, "ev");
    EXPECT_EQ(std::string(t->version).rfind("libev ", 0), 0u) << t->version;
    EXPECT_EQ(t->capabilities & (TASYNC_CAP_COMPLETION | TASYNC_CAP_OFFLOAD), 0u)
        << "the core emulates completion ops and offloads to its own pool";
    EXPECT_EQ(t->op_submit, nullptr);
    EXPECT_EQ(t->work_submit, nullptr);
}

TEST_F(Ev, PriorityInterestIsRefusedClearly) {
    Pipe p;
    tasync_handle_t *h = handles->io(p.r, [](tasync_handle_t *, int, unsigned) {});
    EXPECT_EQ(t->io_start(h, TASYNC_IO_PRIORITY), -ENOTSUP);
    EXPECT_EQ(t->io_start(h, TASYNC_IO_READABLE | TASYNC_IO_PRIORITY), -ENOTSUP);
    EXPECT_EQ(t->io_start(h, TASYNC_IO_READABLE), 0) << "the handle stays usable";
}

TEST_F(Ev, FaultSignalsCannotBeWatched) {
    tasync_handle_t *h = nullptr;
    for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGKILL, SIGSTOP})
        EXPECT_EQ(t->signal_open(loop, s, &signal_tramp, nullptr, &h), -EINVAL) << s;
}

TEST_F(Ev, PidfdCapabilityFollowsTheKernel) {
#ifdef SYS_pidfd_open
    int fd = static_cast<int>(syscall(SYS_pidfd_open, getpid(), 0));
    if (fd >= 0) close(fd);
    if (std::getenv("TASYNC_EV_EXPECT_NO_PIDFD") != nullptr) {
        EXPECT_EQ(t->capabilities & TASYNC_CAP_PIDFD, 0u) << "the test build takes the SIGCHLD path";
    } else {
        EXPECT_EQ((t->capabilities & TASYNC_CAP_PIDFD) != 0, fd >= 0);
    }
#else
    EXPECT_EQ(t->capabilities & TASYNC_CAP_PIDFD, 0u);
#endif
}

TEST_F(ProcessSignals, ChainsToThePreviousHandlerAndRestoresIt) {
    struct sigaction sa {}, saved {};
    sa.sa_sigaction = previous_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ASSERT_EQ(sigaction(SIGUSR2, &sa, &saved), 0);
    g_previous_calls.store(0);
    int calls = 0;
    tasync_handle_t *h = handles->signal(SIGUSR2, [&](tasync_handle_t *, int) { ++calls; });
    EXPECT_FALSE(handler_is(SIGUSR2, previous_handler)) << "the backend's handler is in place";
    ASSERT_EQ(kill(getpid(), SIGUSR2), 0);
    ASSERT_TRUE(run_until(loop, [&] { return calls >= 1; }));
    EXPECT_EQ(g_previous_calls.load(), 1) << "the replaced handler still runs";
    t->handle_close(h);
    EXPECT_TRUE(handler_is(SIGUSR2, previous_handler)) << "given back when the last watch ended";
    ASSERT_EQ(kill(getpid(), SIGUSR2), 0);
    EXPECT_EQ(g_previous_calls.load(), 2);
    run(0);
    EXPECT_EQ(calls, 1);
    sigaction(SIGUSR2, &saved, nullptr);
}

TEST_F(ProcessSignals, DefaultDispositionComesBackAfterTheLastWatchOfAnyLoop) {
    ASSERT_TRUE(disposition_is(SIGUSR1, SIG_DFL));
    tasync_loop_t *other = nullptr;
    tasync_loop_options_t o{};
    o.size = sizeof(o);
    ASSERT_EQ(t->loop_create(&o, &other), 0);
    Handles hs(other);
    tasync_handle_t *a = handles->signal(SIGUSR1, [](tasync_handle_t *, int) {});
    tasync_handle_t *b = hs.signal(SIGUSR1, [](tasync_handle_t *, int) {});
    EXPECT_FALSE(disposition_is(SIGUSR1, SIG_DFL));
    t->handle_close(a);
    EXPECT_FALSE(disposition_is(SIGUSR1, SIG_DFL)) << "the other loop still watches";
    t->handle_close(b);
    EXPECT_TRUE(disposition_is(SIGUSR1, SIG_DFL));
    t->loop_destroy(other);
}

TEST_F(ProcessSignals, IgnoredSignalIsSeenWhileWatchedAndIgnoredAgainAfter) {
    struct sigaction ign {}, saved {};
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    ASSERT_EQ(sigaction(SIGHUP, &ign, &saved), 0);
    int calls = 0;
    tasync_handle_t *h = handles->signal(SIGHUP, [&](tasync_handle_t *, int) { ++calls; });
    ASSERT_EQ(kill(getpid(), SIGHUP), 0);
    ASSERT_TRUE(run_until(loop, [&] { return calls == 1; }));
    t->handle_close(h);
    EXPECT_TRUE(disposition_is(SIGHUP, SIG_IGN));
    ASSERT_EQ(kill(getpid(), SIGHUP), 0);  // ignored again, not fatal
    sigaction(SIGHUP, &saved, nullptr);
}

TEST_F(ProcessSignals, LoopDestroyGivesTheSignalBack) {
    tasync_loop_t *other = nullptr;
    tasync_loop_options_t o{};
    o.size = sizeof(o);
    ASSERT_EQ(t->loop_create(&o, &other), 0);
    Handles hs(other);
    hs.signal(SIGUSR1, [](tasync_handle_t *, int) {});
    EXPECT_FALSE(disposition_is(SIGUSR1, SIG_DFL));
    t->loop_destroy(other);
    EXPECT_TRUE(disposition_is(SIGUSR1, SIG_DFL));
}
