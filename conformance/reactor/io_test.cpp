// fd readiness: readable / writable / hangup on pipes and sockets,
// level-triggered re-reporting (G5), interest changes, stop and restart,
// closing the fd or the handle while watched (G3, G4), and 10 000 fds at
// once.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "harness.hpp"

using namespace tasync::conformance;

namespace {

struct IoEvent {
    int status;
    unsigned revents;
    int run;
};

struct Watch {
    Handle h;
    std::vector<IoEvent> events;
    const int *run = nullptr;  // run counter of the test, to tell runs apart
    // Optional action inside the callback.
    void (*action)(Watch *, int status, unsigned revents) = nullptr;
    void *extra = nullptr;

    int open(tasync_loop_t *loop, int fd) { return B().io_open(loop, fd, &Watch::fired, this, h.out()); }
    int start(unsigned events) { return B().io_start(h, events); }
    unsigned seen() const {
        unsigned all = 0;
        for (const IoEvent &e : events) all |= e.revents;
        return all;
    }
    int errors() const {
        int n = 0;
        for (const IoEvent &e : events) n += e.status < 0;
        return n;
    }
    static void fired(tasync_handle_t *, void *d, int status, unsigned revents) {
        in_callback();
        auto *w = static_cast<Watch *>(d);
        w->events.push_back({status, revents, w->run != nullptr ? *w->run : 0});
        EXPECT_LE(status, 0) << "status is 0 or a negative errno";
        if (status < 0) {
            EXPECT_EQ(revents, 0u) << "an error status comes without revents";
        }
        if (w->action != nullptr) w->action(w, status, revents);
    }
};

class Io : public LoopTest {
protected:
    int run(std::int64_t timeout = 0) {
        runs++;
        return loop.run(timeout);
    }
    // Runs until w has an event (bounded).
    bool wait_event(Watch &w, std::size_t count = 1) {
        return loop.run_until([&] { return w.events.size() >= count; });
    }
    int runs = 0;
};

}  // namespace

TEST_F(Io, G5_PipeReadableIsReportedEveryRunUntilDrained) {
    FdPair p = make_pipe(O_NONBLOCK);
    Watch w;
    w.run = &runs;
    ASSERT_EQ(w.open(loop, p.a), 0);
    ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
    for (int i = 0; i < 3; i++) run();
    EXPECT_TRUE(w.events.empty()) << "an empty pipe is not readable";
    ASSERT_EQ(put(p.b, 3), 3);
    ASSERT_TRUE(wait_event(w));
    const std::size_t before = w.events.size();
    const int first = runs;
    for (int i = 0; i < 5; i++) run();
    // Level-triggered: each of the five runs reported it again.
    std::vector<bool> reported(6, false);
    for (std::size_t i = before; i < w.events.size(); i++) {
        EXPECT_EQ(w.events[i].status, 0);
        EXPECT_TRUE(w.events[i].revents & TASYNC_IO_READABLE) << events_text(w.events[i].revents);
        if (w.events[i].run > first) reported[w.events[i].run - first] = true;
    }
    for (int i = 1; i <= 5; i++) {
        EXPECT_TRUE(reported[i]) << "G5: run " << i << " after the first report did not report the unread data";
    }
    EXPECT_EQ(drain(p.a), 3);
    run();  // an event already collected may still be delivered once
    const std::size_t settled = w.events.size();
    for (int i = 0; i < 3; i++) run();
    EXPECT_EQ(w.events.size(), settled) << "drained: no more reports";
}

TEST_F(Io, G5_SocketWritableIsReportedEveryRun) {
    FdPair s = make_socketpair(SOCK_NONBLOCK);
    Watch w;
    w.run = &runs;
    ASSERT_EQ(w.open(loop, s.a), 0);
    ASSERT_EQ(w.start(TASYNC_IO_WRITABLE), 0);
    ASSERT_TRUE(wait_event(w));
    const int first = runs;
    for (int i = 0; i < 5; i++) run();
    int runs_reporting = 0, last = first;
    for (const IoEvent &e : w.events) {
        EXPECT_TRUE(e.revents & TASYNC_IO_WRITABLE) << events_text(e.revents);
        EXPECT_FALSE(e.revents & TASYNC_IO_READABLE) << "READABLE was not asked for";
        if (e.run > last) {
            runs_reporting++;
            last = e.run;
        }
    }
    EXPECT_EQ(runs_reporting, 5) << "G5: a writable socket is reported by every loop_run";
}

TEST_F(Io, NoInterestMeansNoReports) {
    FdPair p = make_pipe(O_NONBLOCK);
    ASSERT_EQ(put(p.b), 1);
    Watch r, wr;
    ASSERT_EQ(r.open(loop, p.a), 0);
    ASSERT_EQ(wr.open(loop, p.b), 0);
    for (int i = 0; i < 3; i++) run();
    loop.run_for(10 * kMs);
    EXPECT_TRUE(r.events.empty()) << "io_open sets no interest";
    EXPECT_TRUE(wr.events.empty()) << "io_open sets no interest";
}

TEST_F(Io, HangupWhenThePipeWriterCloses) {
    const bool hangup = has_cap(TASYNC_CAP_HANGUP);
    FdPair p = make_pipe(O_NONBLOCK);
    Watch w;
    ASSERT_EQ(w.open(loop, p.a), 0);
    ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
    run();
    p.b.reset();
    ASSERT_TRUE(wait_event(w));
    EXPECT_EQ(w.events[0].status, 0) << "the fd is valid; the peer went away";
    if (hangup) {
        EXPECT_TRUE(w.events[0].revents & TASYNC_IO_HANGUP) << "POLLHUP is reported as HANGUP, got "
                                                            << events_text(w.events[0].revents);
    } else {
        EXPECT_TRUE(w.events[0].revents & TASYNC_IO_READABLE) << "without TASYNC_CAP_HANGUP, as READABLE, got "
                                                              << events_text(w.events[0].revents);
    }
    char c;
    EXPECT_EQ(read(p.a, &c, 1), 0) << "and the read sees end of file";
}

TEST_F(Io, HangupWhenTheSocketPeerCloses) {
    const unsigned expect = has_cap(TASYNC_CAP_HANGUP) ? TASYNC_IO_HANGUP : TASYNC_IO_READABLE;
    FdPair s = make_socketpair(SOCK_NONBLOCK);
    Watch w;
    ASSERT_EQ(w.open(loop, s.a), 0);
    ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
    run();
    EXPECT_TRUE(w.events.empty());
    s.b.reset();
    ASSERT_TRUE(wait_event(w));
    EXPECT_EQ(w.events[0].status, 0);
    EXPECT_TRUE(w.events[0].revents & expect) << events_text(w.events[0].revents);
    // Level-triggered: the hangup stays reported while the interest holds.
    const std::size_t n = w.events.size();
    run();
    run();
    EXPECT_GT(w.events.size(), n) << "G5: the hangup is reported again";
}

TEST_F(Io, HangupWhenTheSocketPeerShutsDownWriting) {
    const unsigned expect = has_cap(TASYNC_CAP_HANGUP) ? TASYNC_IO_HANGUP : TASYNC_IO_READABLE;
    FdPair s = make_socketpair(SOCK_NONBLOCK);
    Watch w;
    ASSERT_EQ(w.open(loop, s.a), 0);
    ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
    run();
    ASSERT_EQ(shutdown(s.b, SHUT_WR), 0);
    ASSERT_TRUE(wait_event(w));
    EXPECT_EQ(w.events[0].status, 0);
    // POLLRDHUP: reported as HANGUP (with READABLE, since a read returns 0).
    EXPECT_TRUE(w.events[0].revents & expect) << events_text(w.events[0].revents);
    char c;
    EXPECT_EQ(recv(s.a, &c, 1, 0), 0);
}

TEST_F(Io, PipeWhoseReaderIsGoneIsReportedOnAValidFd) {
    // The write end of a pipe without readers polls POLLERR. The fd itself
    // is fine: the report must say so (status 0 with ERROR, HANGUP or
    // WRITABLE), so the caller writes and meets EPIPE. A -EBADF status would
    // claim the caller's fd is invalid.
    // Without TASYNC_CAP_HANGUP the error shows as WRITABLE (the write then
    // meets EPIPE).
    const unsigned expect = has_cap(TASYNC_CAP_HANGUP) ? TASYNC_IO_ERROR | TASYNC_IO_HANGUP
                                                                     : TASYNC_IO_WRITABLE;
    FdPair p = make_pipe(O_NONBLOCK);
    Watch w;
    ASSERT_EQ(w.open(loop, p.b), 0);
    ASSERT_EQ(put(p.b, 65536) > 0, true);  // fill it, so WRITABLE alone is not reported
    ASSERT_EQ(w.start(TASYNC_IO_WRITABLE), 0);
    run();
    p.a.reset();
    ASSERT_TRUE(loop.run_until([&] {
        for (const IoEvent &e : w.events)
            if (e.status != 0 || (e.revents & expect)) return true;
        return false;
    }));
    const IoEvent &e = w.events.back();
    EXPECT_EQ(e.status, 0) << "the fd is valid, yet the backend reported " << err_text(e.status);
    EXPECT_TRUE(e.revents & expect) << events_text(e.revents);
    errno = 0;
    EXPECT_EQ(put(p.b), -1);
    EXPECT_EQ(errno, EPIPE);
}

TEST_F(Io, ChangingTheInterestTakesEffect) {
    FdPair s = make_socketpair(SOCK_NONBLOCK);
    Watch w;
    w.run = &runs;
    ASSERT_EQ(w.open(loop, s.a), 0);
    ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
    for (int i = 0; i < 3; i++) run();
    EXPECT_TRUE(w.events.empty()) << "no data yet";

    ASSERT_EQ(w.start(TASYNC_IO_WRITABLE), 0);
    ASSERT_TRUE(wait_event(w));
    EXPECT_EQ(w.events.back().revents & (TASYNC_IO_READABLE | TASYNC_IO_WRITABLE), unsigned{TASYNC_IO_WRITABLE});

    ASSERT_EQ(put(s.b), 1);
    ASSERT_EQ(w.start(TASYNC_IO_READABLE | TASYNC_IO_WRITABLE), 0);
    ASSERT_TRUE(loop.run_until([&] {
        return (w.seen() & (TASYNC_IO_READABLE | TASYNC_IO_WRITABLE)) == (TASYNC_IO_READABLE | TASYNC_IO_WRITABLE) &&
               (w.events.back().revents & TASYNC_IO_READABLE);
    }));

    ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
    EXPECT_EQ(drain(s.a), 1);
    run();  // an event collected before the change may still arrive once
    w.events.clear();
    for (int i = 0; i < 4; i++) run();
    EXPECT_TRUE(w.events.empty()) << "interest READABLE only, nothing to read, yet got "
                                  << (w.events.empty() ? "" : events_text(w.events[0].revents));
    ASSERT_EQ(put(s.b), 1);
    ASSERT_TRUE(wait_event(w));
    EXPECT_EQ(w.events[0].revents & (TASYNC_IO_READABLE | TASYNC_IO_WRITABLE), unsigned{TASYNC_IO_READABLE});
}

TEST_F(Io, StopAndRestartOfAWatch) {
    FdPair p = make_pipe(O_NONBLOCK);
    ASSERT_EQ(put(p.b), 1);
    Watch w;
    ASSERT_EQ(w.open(loop, p.a), 0);
    ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
    ASSERT_TRUE(wait_event(w));

    ASSERT_EQ(B().io_stop(w.h), 0);
    run();  // one already collected may still come
    w.events.clear();
    loop.run_for(10 * kMs);
    EXPECT_TRUE(w.events.empty()) << "stopped: the readable pipe is not reported";
    EXPECT_EQ(B().io_stop(w.h), 0) << "stopping twice is harmless";

    ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
    ASSERT_TRUE(wait_event(w)) << "restarted: reported again";

    ASSERT_EQ(w.start(0), 0) << "io_start(0) stops";
    run();
    w.events.clear();
    loop.run_for(10 * kMs);
    EXPECT_TRUE(w.events.empty());

    // Many quick stop/start cycles between runs end in the last state.
    for (int i = 0; i < 100; i++) {
        ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
        ASSERT_EQ(B().io_stop(w.h), 0);
    }
    ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
    ASSERT_TRUE(wait_event(w));
}

TEST_F(Io, StopInsideTheCallback) {
    FdPair p = make_pipe(O_NONBLOCK);
    ASSERT_EQ(put(p.b), 1);
    Watch w;
    w.action = [](Watch *self, int, unsigned) { EXPECT_EQ(B().io_stop(self->h), 0); };
    ASSERT_EQ(w.open(loop, p.a), 0);
    ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
    ASSERT_TRUE(wait_event(w));
    loop.run_for(20 * kMs);
    EXPECT_EQ(w.events.size(), 1u) << "stopped in its own callback";
}

TEST_F(Io, G3_HandleClosedInsideItsOwnCallback) {
    FdPair p = make_pipe(O_NONBLOCK);
    ASSERT_EQ(put(p.b), 1);
    Watch w;
    w.action = [](Watch *self, int, unsigned) { self->h.close(); };
    ASSERT_EQ(w.open(loop, p.a), 0);
    ASSERT_EQ(w.start(TASYNC_IO_READABLE | TASYNC_IO_WRITABLE), 0);
    ASSERT_TRUE(wait_event(w));
    loop.run_for(20 * kMs);
    EXPECT_EQ(w.events.size(), 1u) << "G3: no callback after handle_close";
}

TEST_F(Io, G3_HandleClosedByAnotherCallbackOfTheSameRun) {
    // Two fds ready in the same loop_run; whichever callback comes first
    // closes the other handle, which must then not be called.
    FdPair p1 = make_pipe(O_NONBLOCK), p2 = make_pipe(O_NONBLOCK);
    ASSERT_EQ(put(p1.b), 1);
    ASSERT_EQ(put(p2.b), 1);
    Watch w1, w2;
    w1.extra = &w2;
    w2.extra = &w1;
    w1.action = w2.action = [](Watch *self, int, unsigned) {
        self->h.close();
        static_cast<Watch *>(self->extra)->h.close();
    };
    ASSERT_EQ(w1.open(loop, p1.a), 0);
    ASSERT_EQ(w2.open(loop, p2.a), 0);
    ASSERT_EQ(w1.start(TASYNC_IO_READABLE), 0);
    ASSERT_EQ(w2.start(TASYNC_IO_READABLE), 0);
    ASSERT_TRUE(loop.run_until([&] { return w1.events.size() + w2.events.size() > 0; }));
    loop.run_for(20 * kMs);
    EXPECT_EQ(w1.events.size() + w2.events.size(), 1u) << "G3: the closed handle's pending event was delivered";
}

TEST_F(Io, G3_HandleClosedBetweenRunsWhileReady) {
    FdPair p = make_pipe(O_NONBLOCK);
    ASSERT_EQ(put(p.b), 1);
    for (int round = 0; round < 50; round++) {
        Watch w;
        ASSERT_EQ(w.open(loop, p.a), 0);
        ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
        // Close after 0, 1 or 2 runs: the readiness is in flight in the
        // backend (a submitted poll, an epoll event) when the close comes.
        for (int i = 0; i < round % 3; i++) run();
        const std::size_t n = w.events.size();
        w.h.close();
        run();
        run();
        EXPECT_EQ(w.events.size(), n) << "G3: callback after handle_close (round " << round << ")";
    }
}

TEST_F(Io, G4_ClosingTheFdWhileWatchedIsSurvived) {
    FdPair p = make_pipe(O_NONBLOCK);
    Watch w;
    ASSERT_EQ(w.open(loop, p.a), 0);
    ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
    run();
    p.a.reset();  // closed behind the backend's back
    loop.run_for(10 * kMs);
    for (const IoEvent &e : w.events)
        EXPECT_TRUE(e.status < 0) << "G4: a closed fd may only be reported with an error status, got "
                                  << events_text(e.revents);
    // Changing the interest of a handle whose fd is gone must not crash;
    // it may fail.
    const int rc = w.start(TASYNC_IO_READABLE | TASYNC_IO_WRITABLE);
    EXPECT_LE(rc, 0);
    loop.run_for(10 * kMs);
    B().io_stop(w.h);
    w.h.close();
    const std::size_t n = w.events.size();
    loop.run_for(10 * kMs);
    EXPECT_EQ(w.events.size(), n) << "G3/G4: nothing after handle_close";
}

TEST_F(Io, G4_FdNumberReusedAfterTheHandleIsClosed) {
    // The fd is closed while watched, the handle closed, and the same fd
    // number comes back as a new pipe: a new handle on it works, and only
    // the new handle hears about it.
    FdPair p = make_pipe(O_NONBLOCK);
    const int number = p.a;
    Watch old;
    ASSERT_EQ(old.open(loop, p.a), 0);
    ASSERT_EQ(old.start(TASYNC_IO_READABLE), 0);
    run();
    p.a.reset();
    old.h.close();
    FdPair q = make_pipe(O_NONBLOCK);
    Fd reused;
    if (q.a.get() == number) {
        reused = std::move(q.a);
    } else {
        ASSERT_EQ(dup3(q.a, number, O_CLOEXEC), number);
        reused.reset(number);
    }
    Watch fresh;
    ASSERT_EQ(fresh.open(loop, reused), 0) << "a new handle on a reused fd number";
    ASSERT_EQ(fresh.start(TASYNC_IO_READABLE), 0);
    ASSERT_EQ(put(q.b), 1);
    ASSERT_TRUE(wait_event(fresh));
    EXPECT_EQ(fresh.events[0].status, 0);
    EXPECT_TRUE(fresh.events[0].revents & TASYNC_IO_READABLE);
    EXPECT_TRUE(old.events.empty());
    fresh.h.close();
}

TEST_F(Io, G4_SameFdWatchedAgainRightAfterHandleClose) {
    // handle_close then io_open on the same fd, with no loop_run between
    // (a backend with asynchronous close still has the old one around).
    FdPair p = make_pipe(O_NONBLOCK);
    ASSERT_EQ(put(p.b), 1);
    for (int round = 0; round < 20; round++) {
        Watch w;
        ASSERT_EQ(w.open(loop, p.a), 0) << "round " << round;
        ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
        if (round % 2) run();
        w.h.close();
        Watch again;
        ASSERT_EQ(again.open(loop, p.a), 0) << "round " << round;
        ASSERT_EQ(again.start(TASYNC_IO_READABLE), 0);
        ASSERT_TRUE(wait_event(again)) << "round " << round;
        const std::size_t before = w.events.size();
        again.h.close();
        run();
        EXPECT_EQ(w.events.size(), before);
    }
}

TEST_F(Io, PriorityInterestIsRefusedWithoutTheCapability) {
    if (has_cap(TASYNC_CAP_PRIORITY)) GTEST_SKIP() << "the backend advertises TASYNC_CAP_PRIORITY";
    FdPair s = make_socketpair(SOCK_NONBLOCK);
    Watch w;
    ASSERT_EQ(w.open(loop, s.a), 0);
    EXPECT_EQ(w.start(TASYNC_IO_READABLE | TASYNC_IO_PRIORITY), -ENOTSUP);
    EXPECT_EQ(w.start(TASYNC_IO_READABLE), 0) << "the handle stays usable";
}

TEST_F(Io, PriorityDataIsReported) {
    if (!has_cap(TASYNC_CAP_PRIORITY)) GTEST_SKIP() << "no TASYNC_CAP_PRIORITY";
    // TCP urgent data polls POLLPRI.
    Fd listener(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    ASSERT_GE(listener.get(), 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
    socklen_t len = sizeof(addr);
    ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr *>(&addr), &len), 0);
    ASSERT_EQ(listen(listener, 1), 0);
    Fd client(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    ASSERT_EQ(connect(client, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
    Fd server(accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    ASSERT_GE(server.get(), 0);
    Watch w;
    ASSERT_EQ(w.open(loop, server), 0);
    ASSERT_EQ(w.start(TASYNC_IO_PRIORITY), 0);
    run();
    EXPECT_TRUE(w.events.empty());
    char c = '!';
    ASSERT_EQ(send(client, &c, 1, MSG_OOB), 1);
    ASSERT_TRUE(wait_event(w));
    EXPECT_TRUE(w.events[0].revents & TASYNC_IO_PRIORITY) << events_text(w.events[0].revents);
}

TEST_F(Io, PriorityInterestIsLevelTriggeredAndDroppedWithTheInterestOrTheHandle) {
    if (!has_cap(TASYNC_CAP_PRIORITY)) GTEST_SKIP() << "no TASYNC_CAP_PRIORITY";
    Fd listener(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    ASSERT_GE(listener.get(), 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
    socklen_t len = sizeof(addr);
    ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr *>(&addr), &len), 0);
    ASSERT_EQ(listen(listener, 1), 0);
    Fd client(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    ASSERT_EQ(connect(client, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
    Fd server(accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    ASSERT_GE(server.get(), 0);
    char c = '!';
    ASSERT_EQ(send(client, &c, 1, MSG_OOB), 1);

    // G5: reported again while the urgent byte is unread.
    Watch w;
    ASSERT_EQ(w.open(loop, server), 0);
    ASSERT_EQ(w.start(TASYNC_IO_PRIORITY), 0);
    ASSERT_TRUE(wait_event(w));
    ASSERT_TRUE(wait_event(w, 2)) << "G5: priority data left unread is reported again";
    EXPECT_TRUE(w.events[1].revents & TASYNC_IO_PRIORITY) << events_text(w.events[1].revents);

    // Dropping the interest (readable only; nothing ordinary to read) ends
    // the reports; asking again brings them back.
    ASSERT_EQ(w.start(TASYNC_IO_READABLE), 0);
    std::size_t n = w.events.size();
    loop.run_for(20 * kMs);
    EXPECT_EQ(w.events.size(), n) << "no priority report after the interest was dropped";
    ASSERT_EQ(w.start(TASYNC_IO_READABLE | TASYNC_IO_PRIORITY), 0);
    ASSERT_TRUE(wait_event(w, n + 1));
    EXPECT_TRUE(w.events.back().revents & TASYNC_IO_PRIORITY) << events_text(w.events.back().revents);

    // The handle closed and another opened on the same fd at once (G4):
    // only the new one hears the urgent byte.
    w.h.close();
    n = w.events.size();
    Watch fresh;
    ASSERT_EQ(fresh.open(loop, server), 0);
    ASSERT_EQ(fresh.start(TASYNC_IO_PRIORITY), 0);
    ASSERT_TRUE(wait_event(fresh));
    EXPECT_TRUE(fresh.events[0].revents & TASYNC_IO_PRIORITY) << events_text(fresh.events[0].revents);
    loop.run_for(10 * kMs);
    EXPECT_EQ(w.events.size(), n) << "G3: nothing after handle_close";
}

TEST_F(Io, G10_BadArgumentsAreRefusedWithNegativeErrno) {
    Handle h;
    const int rc = B().io_open(loop, -1, &Watch::fired, nullptr, h.out());
    EXPECT_LT(rc, 0) << "io_open on fd -1";
    EXPECT_GT(rc, -4096) << "a negative errno, got " << rc;
    if (rc == 0) h.close();
    else h.release();
}

TEST_F(Io, TenThousandFdsWatchedAtOnce) {
    constexpr int kFds = 10000;
    struct rlimit lim;
    ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &lim), 0);
    const rlim_t need = static_cast<rlim_t>(kFds) + 256;
    if (lim.rlim_cur < need) {
        if (lim.rlim_max != RLIM_INFINITY && lim.rlim_max < need)
            GTEST_SKIP() << "RLIMIT_NOFILE hard limit is " << lim.rlim_max << "; 10 000 watched fds need about " << need
                         << " (raise it with ulimit -Hn as root)";
        lim.rlim_cur = need;
        ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &lim), 0) << std::strerror(errno);
    }
    std::vector<Fd> fds;
    std::vector<Watch> watches(kFds);
    fds.reserve(kFds);
    int counter = 0;
    for (int i = 0; i < kFds; i++) {
        fds.emplace_back(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
        ASSERT_GE(fds.back().get(), 0) << "eventfd " << i << ": " << std::strerror(errno);
        watches[i].run = &counter;
        ASSERT_EQ(watches[i].open(loop, fds[i]), 0) << "fd " << i;
        ASSERT_EQ(watches[i].start(TASYNC_IO_READABLE), 0) << "fd " << i;
    }
    for (int i = 0; i < 3; i++) run();
    for (int i = 0; i < kFds; i++) {
        ASSERT_TRUE(watches[i].events.empty()) << "fd " << i << " reported before any write";
    }

    // Every seventh becomes readable: exactly those are reported.
    const std::uint64_t one = 1;
    for (int i = 0; i < kFds; i += 7) {
        ASSERT_EQ(write(fds[i], &one, sizeof(one)), 8);
    }
    auto reported = [&](int step) {
        for (int i = 0; i < kFds; i += step)
            if (watches[i].events.empty()) return false;
        return true;
    };
    ASSERT_TRUE(loop.run_until([&] { return reported(7); }));
    for (int i = 0; i < kFds; i++) {
        if (i % 7 != 0) {
            ASSERT_TRUE(watches[i].events.empty()) << "fd " << i << " was never written";
        }
        else ASSERT_TRUE(watches[i].events[0].revents & TASYNC_IO_READABLE);
    }
    // Drained again: quiet again.
    for (int i = 0; i < kFds; i += 7) drain(fds[i]);
    run();
    for (Watch &w : watches) w.events.clear();
    for (int i = 0; i < 3; i++) run();
    int noisy = 0;
    for (Watch &w : watches) noisy += !w.events.empty();
    EXPECT_EQ(noisy, 0) << "drained fds still reported";

    // All of them at once; then stop half and close everything.
    for (int i = 0; i < kFds; i++) {
        ASSERT_EQ(write(fds[i], &one, sizeof(one)), 8);
    }
    ASSERT_TRUE(loop.run_until([&] { return reported(1); }));
    // G5 at scale: while they stay readable, every run reports every one.
    for (int r = 0; r < 3; r++) {
        for (Watch &w : watches) w.events.clear();
        run();
        int seen = 0;
        for (Watch &w : watches) seen += !w.events.empty();
        EXPECT_EQ(seen, kFds) << "G5: loop_run " << r << " reported only " << seen << " of " << kFds << " readable fds";
    }
    for (int i = 0; i < kFds; i += 2) {
        ASSERT_EQ(B().io_stop(watches[i].h), 0);
    }
    run();
    for (Watch &w : watches) w.events.clear();
    for (int i = 0; i < 2; i++) run();
    for (int i = 0; i < kFds; i += 2) {
        ASSERT_TRUE(watches[i].events.empty()) << "stopped fd " << i << " reported";
    }
    for (Watch &w : watches) w.h.close();
    run();
}

TEST_F(Io, RegularFileIsReportedReadyOrRefused) {
    // epoll cannot watch regular files; TASYNC_CAP_FILE_READINESS says
    // whether the backend can. Either way: a clear answer, no crash, no hang.
    char path[] = "/tmp/tasync-conformance-file-XXXXXX";
    Fd file(mkstemp(path));
    ASSERT_GE(file.get(), 0);
    unlink(path);
    ASSERT_EQ(put(file, 10), 10);
    lseek(file, 0, SEEK_SET);
    Watch w;
    const int open_rc = w.open(loop, file);
    int start_rc = open_rc;
    if (open_rc == 0) start_rc = w.start(TASYNC_IO_READABLE | TASYNC_IO_WRITABLE);
    if (has_cap(TASYNC_CAP_FILE_READINESS)) {
        ASSERT_EQ(open_rc, 0) << "TASYNC_CAP_FILE_READINESS advertised, yet io_open refused a regular file";
        ASSERT_EQ(start_rc, 0);
        ASSERT_TRUE(wait_event(w));
        EXPECT_EQ(w.events[0].status, 0);
        EXPECT_EQ(w.events[0].revents & (TASYNC_IO_READABLE | TASYNC_IO_WRITABLE),
                  unsigned{TASYNC_IO_READABLE | TASYNC_IO_WRITABLE});
    } else if (start_rc == 0) {
        loop.run_for(10 * kMs);  // whatever it reports, it survives
    } else {
        EXPECT_GT(start_rc, -4096) << "refused with a negative errno";
    }
    if (open_rc != 0) w.h.release();
}
