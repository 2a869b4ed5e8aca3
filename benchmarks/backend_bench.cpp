// Each backend (uv, uring, ev) against the library it wraps, in one run:
// the same pipe ping-pong and the same timer churn written through the
// runtime and directly on libuv, liburing and libev.
//
// Goals (issue 4): the runtime on a backend reaches >= 0.9x the throughput
// of the same loop written on that backend's library; the uring backend,
// whose completion operations (tasync_await_op READ/WRITE) run natively,
// reaches >= 2x the uv backend on the runtime's pipe ping-pong.
//
// Pipe ping-pong: two pipes, a byte goes a -> b -> back, 20000 round trips
// per iteration, both ends in one thread; every read offers a 64-byte
// buffer, as a real reader would, and gets the one byte. "fd" is readiness
// (wait until readable, read, write), "op" is completion (a read or write
// operation that finishes when it has transferred). Raw baselines: libuv
// uv_poll, libev ev_io, liburing read/write operations (the op baseline)
// and liburing poll operations plus read/write calls (the fd baseline).
//
// Timer churn: 1000 live timers. "rearm" pushes deadlines 1..101 s away
// 100000 times (never firing); "fire" starts every timer with a timeout
// under a microsecond (distinct timeouts, so that deadlines differ as they
// do in real programs; libuv counts whole milliseconds, so its timers all
// get 0) and re-arms each from its callback until 100000 have fired: every
// timer is due by the next loop iteration, so the loop never sleeps. The
// runtime's timers (tasync_timer_*) live in the core's heap whatever the
// backend, so its figures differ between backends only through the
// backend's clock and loop_run; the raw baselines are each library's own
// timers (libuv's uv_timer_t, libev's ev_timer, io_uring's timeout
// operations, of which one io_uring_enter submits 128).
//
// Ratios compare CPU time (the process never sleeps except in the raw
// io_uring timer loops, whose hrtimers fire while it waits), which the
// other sessions of a shared machine disturb far less than wall time, and
// the median of 3 repetitions run in random order (flags given on the
// command line override these defaults).
#include <ev.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <uv.h>

#include <tasync/tasync.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "ratio.hpp"
#include "raw_uring.hpp"

namespace {

constexpr int kRoundTrips = 20000;
constexpr int kReadBuf = 64;
constexpr int kLiveTimers = 1000;
constexpr int kRearms = 100000;
constexpr int kFires = 100000;

const char *const kBackends[] = {"uv", "uring", "ev"};

[[noreturn]] void die(const char *what) {
    std::perror(what);
    std::abort();
}

struct Pipes {
    int a[2], b[2];
    Pipes() {
        if (pipe2(a, O_NONBLOCK | O_CLOEXEC) != 0 || pipe2(b, O_NONBLOCK | O_CLOEXEC) != 0) die("pipe2");
    }
    ~Pipes() {
        for (int fd : {a[0], a[1], b[0], b[1]}) close(fd);
    }
};

// A runtime on the named backend, or NULL with the reason in the state.
tasync_runtime_t *make_runtime(benchmark::State &state, const char *backend) {
    char err[256] = "";
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    o.backend = backend;
    o.errbuf = err;
    o.errbuf_size = sizeof(err);
    tasync_runtime_t *rt = nullptr;
    if (tasync_runtime_create(&o, &rt) != 0) {
        state.SkipWithError((std::string("backend ") + backend + ": " + err).c_str());
        return nullptr;
    }
    return rt;
}

// ================================================= raw pipe ping-pongs

struct UvPingPong {
    Pipes p;
    uv_loop_t loop;
    uv_poll_t ping_in, pong_in;  // ping reads b, pong reads a
    int left = 0;
};

void pingpong_raw_uv(benchmark::State &state) {
    UvPingPong pp;
    uv_loop_init(&pp.loop);
    uv_poll_init(&pp.loop, &pp.pong_in, pp.p.a[0]);
    uv_poll_init(&pp.loop, &pp.ping_in, pp.p.b[0]);
    pp.pong_in.data = pp.ping_in.data = &pp;
    // pong: a byte on a -> send it back on b
    uv_poll_start(&pp.pong_in, UV_READABLE, [](uv_poll_t *h, int, int) {
        auto *pp = static_cast<UvPingPong *>(h->data);
        char c[kReadBuf];
        if (read(pp->p.a[0], c, kReadBuf) == 1 && write(pp->p.b[1], c, 1) != 1) die("write");
    });
    // ping: the byte came back -> one round trip done; send the next
    uv_poll_start(&pp.ping_in, UV_READABLE, [](uv_poll_t *h, int, int) {
        auto *pp = static_cast<UvPingPong *>(h->data);
        char c[kReadBuf];
        if (read(pp->p.b[0], c, kReadBuf) != 1) return;
        if (--pp->left > 0) {
            if (write(pp->p.a[1], c, 1) != 1) die("write");
        } else {
            uv_stop(&pp->loop);
        }
    });
    for (auto _ : state) {
        pp.left = kRoundTrips;
        char c = 'x';
        if (write(pp.p.a[1], &c, 1) != 1) die("write");
        uv_run(&pp.loop, UV_RUN_DEFAULT);
    }
    tasync_bench::report_ops(state, kRoundTrips);
    uv_close(reinterpret_cast<uv_handle_t *>(&pp.ping_in), nullptr);
    uv_close(reinterpret_cast<uv_handle_t *>(&pp.pong_in), nullptr);
    uv_run(&pp.loop, UV_RUN_DEFAULT);
    uv_loop_close(&pp.loop);
}

struct EvPingPong {
    Pipes p;
    struct ev_loop *loop = nullptr;
    ev_io ping_in, pong_in;
    int left = 0;
};

void pingpong_raw_ev(benchmark::State &state) {
    EvPingPong pp;
    pp.loop = ev_loop_new(EVFLAG_AUTO);
    ev_io_init(&pp.pong_in, [](struct ev_loop *, ev_io *w, int) {
        auto *pp = static_cast<EvPingPong *>(w->data);
        char c[kReadBuf];
        if (read(pp->p.a[0], c, kReadBuf) == 1 && write(pp->p.b[1], c, 1) != 1) die("write");
    }, pp.p.a[0], EV_READ);
    ev_io_init(&pp.ping_in, [](struct ev_loop *loop, ev_io *w, int) {
        auto *pp = static_cast<EvPingPong *>(w->data);
        char c[kReadBuf];
        if (read(pp->p.b[0], c, kReadBuf) != 1) return;
        if (--pp->left > 0) {
            if (write(pp->p.a[1], c, 1) != 1) die("write");
        } else {
            ev_break(loop, EVBREAK_ONE);
        }
    }, pp.p.b[0], EV_READ);
    pp.pong_in.data = pp.ping_in.data = &pp;
    ev_io_start(pp.loop, &pp.pong_in);
    ev_io_start(pp.loop, &pp.ping_in);
    for (auto _ : state) {
        pp.left = kRoundTrips;
        char c = 'x';
        if (write(pp.p.a[1], &c, 1) != 1) die("write");
        ev_run(pp.loop, 0);
    }
    tasync_bench::report_ops(state, kRoundTrips);
    ev_io_stop(pp.loop, &pp.pong_in);
    ev_io_stop(pp.loop, &pp.ping_in);
    ev_loop_destroy(pp.loop);
}

// liburing, completion style: a read is always pending on each pipe; when
// it completes, the byte is written on with a write operation and the read
// is queued again. One io_uring_enter submits the batch and waits.
struct UringRw {
    Pipes p;
    struct io_uring ring;
    char pong_buf[kReadBuf] = {}, ping_buf[kReadBuf] = {}, out_a = 'x', out_b = 0;
    int left = 0;
};
enum : std::uint64_t { kPongRead = 1, kPingRead = 2, kWrite = 3 };

void uring_queue_rw(struct io_uring *ring, bool read_op, int fd, char *buf, std::uint64_t tag) {
    struct io_uring_sqe *sqe = tasync_bench::uring_sqe(ring);
    if (read_op) io_uring_prep_read(sqe, fd, buf, kReadBuf, static_cast<std::uint64_t>(-1));
    else io_uring_prep_write(sqe, fd, buf, 1, static_cast<std::uint64_t>(-1));
    io_uring_sqe_set_data64(sqe, tag);
}

void pingpong_raw_uring_rw(benchmark::State &state) {
    UringRw pp;
    if (int rc = tasync_bench::uring_setup(64, &pp.ring); rc != 0) {
        state.SkipWithError("io_uring_queue_init failed");
        return;
    }
    uring_queue_rw(&pp.ring, true, pp.p.a[0], pp.pong_buf, kPongRead);
    uring_queue_rw(&pp.ring, true, pp.p.b[0], pp.ping_buf, kPingRead);
    for (auto _ : state) {
        pp.left = kRoundTrips;
        uring_queue_rw(&pp.ring, false, pp.p.a[1], &pp.out_a, kWrite);
        while (pp.left > 0) {
            if (int rc = io_uring_submit_and_wait(&pp.ring, 1); rc < 0 && rc != -EINTR) die("io_uring_submit_and_wait");
            unsigned head, n = 0;
            struct io_uring_cqe *cqe;
            io_uring_for_each_cqe(&pp.ring, head, cqe) {
                ++n;
                if (cqe->res != 1) die("io_uring read/write");
                switch (cqe->user_data) {
                    case kPongRead:
                        pp.out_b = pp.pong_buf[0];
                        uring_queue_rw(&pp.ring, false, pp.p.b[1], &pp.out_b, kWrite);
                        uring_queue_rw(&pp.ring, true, pp.p.a[0], pp.pong_buf, kPongRead);
                        break;
                    case kPingRead:
                        uring_queue_rw(&pp.ring, true, pp.p.b[0], pp.ping_buf, kPingRead);
                        if (--pp.left > 0) uring_queue_rw(&pp.ring, false, pp.p.a[1], &pp.out_a, kWrite);
                        break;
                    default: break;
                }
            }
            io_uring_cq_advance(&pp.ring, n);
        }
    }
    tasync_bench::report_ops(state, kRoundTrips);
    io_uring_queue_exit(&pp.ring);  // cancels the two pending reads
}

// liburing, readiness style: one-shot polls re-armed after each report
// (what the uring backend does for tasync_await_fd), read and write calls.
struct UringPoll {
    Pipes p;
    struct io_uring ring;
    int left = 0;
};

void uring_queue_poll(struct io_uring *ring, int fd, std::uint64_t tag) {
    struct io_uring_sqe *sqe = tasync_bench::uring_sqe(ring);
    io_uring_prep_poll_add(sqe, fd, POLLIN);
    io_uring_sqe_set_data64(sqe, tag);
}

void pingpong_raw_uring_poll(benchmark::State &state) {
    UringPoll pp;
    if (tasync_bench::uring_setup(64, &pp.ring) != 0) {
        state.SkipWithError("io_uring_queue_init failed");
        return;
    }
    uring_queue_poll(&pp.ring, pp.p.a[0], kPongRead);
    uring_queue_poll(&pp.ring, pp.p.b[0], kPingRead);
    for (auto _ : state) {
        pp.left = kRoundTrips;
        char c[kReadBuf] = {'x'};
        if (write(pp.p.a[1], c, 1) != 1) die("write");
        while (pp.left > 0) {
            if (int rc = io_uring_submit_and_wait(&pp.ring, 1); rc < 0 && rc != -EINTR) die("io_uring_submit_and_wait");
            unsigned head, n = 0;
            struct io_uring_cqe *cqe;
            io_uring_for_each_cqe(&pp.ring, head, cqe) {
                ++n;
                if (cqe->res < 0) die("io_uring poll");
                if (cqe->user_data == kPongRead) {
                    if (read(pp.p.a[0], c, kReadBuf) == 1 && write(pp.p.b[1], c, 1) != 1) die("write");
                    uring_queue_poll(&pp.ring, pp.p.a[0], kPongRead);
                } else {
                    uring_queue_poll(&pp.ring, pp.p.b[0], kPingRead);
                    if (read(pp.p.b[0], c, kReadBuf) == 1 && --pp.left > 0 && write(pp.p.a[1], c, 1) != 1)
                        die("write");
                }
            }
            io_uring_cq_advance(&pp.ring, n);
        }
    }
    tasync_bench::report_ops(state, kRoundTrips);
    io_uring_queue_exit(&pp.ring);
}

// ===================================== the same ping-pongs through the runtime

struct RtPingPong {
    Pipes p;
    tasync_runtime_t *rt = nullptr;
};

// Readiness: wait until readable, read, write: the system calls of the raw
// readiness loops.
void rt_fd_read(tasync_runtime_t *rt, int fd, char *c) {
    do {
        if (tasync_await_fd(rt, fd, TASYNC_IO_READABLE, nullptr, nullptr, nullptr) != 0) die("tasync_await_fd");
    } while (read(fd, c, kReadBuf) != 1);
}

void pingpong_rt_fd(benchmark::State &state, const char *backend) {
    tasync_runtime_t *rt = make_runtime(state, backend);
    if (rt == nullptr) return;
    {
        RtPingPong pp;
        pp.rt = rt;
        for (auto _ : state) {
            tasync_spawn_options_t pong{};
            pong.size = sizeof(pong);
            pong.arg = &pp;
            pong.entry = [](tasync_coroutine_t *, void *arg) {
                auto *pp = static_cast<RtPingPong *>(arg);
                char c[kReadBuf];
                for (int i = 0; i < kRoundTrips; ++i) {
                    rt_fd_read(pp->rt, pp->p.a[0], c);
                    if (write(pp->p.b[1], c, 1) != 1) die("write");
                }
            };
            if (tasync_spawn(rt, &pong, nullptr, nullptr) != 0) die("tasync_spawn");
            char c[kReadBuf] = {'x'};  // ping runs in the main coroutine
            for (int i = 0; i < kRoundTrips; ++i) {
                if (write(pp.p.a[1], c, 1) != 1) die("write");
                rt_fd_read(rt, pp.p.b[0], c);
            }
            tasync_runtime_run(rt);
        }
        tasync_bench::report_ops(state, kRoundTrips);
        tasync_fd_forget(rt, pp.p.a[0]);
        tasync_fd_forget(rt, pp.p.b[0]);
    }
    tasync_runtime_destroy(rt);
}

// Completion: tasync_await_op READ and WRITE (native on uring, emulated by
// the core over readiness on uv and ev).
void rt_op(tasync_runtime_t *rt, int opcode, int fd, char *c, std::uint64_t len) {
    tasync_op_t op{};
    op.size = sizeof(op);
    op.opcode = static_cast<std::uint16_t>(opcode);
    op.fd = fd;
    op.buf = c;
    op.len = len;
    op.offset = TASYNC_OFFSET_CURRENT;
    if (tasync_await_op(rt, &op, nullptr, nullptr) != 1) die("tasync_await_op");
}

void pingpong_rt_op(benchmark::State &state, const char *backend) {
    tasync_runtime_t *rt = make_runtime(state, backend);
    if (rt == nullptr) return;
    {
        RtPingPong pp;
        pp.rt = rt;
        for (auto _ : state) {
            tasync_spawn_options_t pong{};
            pong.size = sizeof(pong);
            pong.arg = &pp;
            pong.entry = [](tasync_coroutine_t *, void *arg) {
                auto *pp = static_cast<RtPingPong *>(arg);
                char c[kReadBuf];
                for (int i = 0; i < kRoundTrips; ++i) {
                    rt_op(pp->rt, TASYNC_OP_READ, pp->p.a[0], c, kReadBuf);
                    rt_op(pp->rt, TASYNC_OP_WRITE, pp->p.b[1], c, 1);
                }
            };
            if (tasync_spawn(rt, &pong, nullptr, nullptr) != 0) die("tasync_spawn");
            char c[kReadBuf] = {'x'};
            for (int i = 0; i < kRoundTrips; ++i) {
                rt_op(rt, TASYNC_OP_WRITE, pp.p.a[1], c, 1);
                rt_op(rt, TASYNC_OP_READ, pp.p.b[0], c, kReadBuf);
            }
            tasync_runtime_run(rt);
        }
        tasync_bench::report_ops(state, kRoundTrips);
        for (int fd : {pp.p.a[0], pp.p.a[1], pp.p.b[0], pp.p.b[1]}) tasync_fd_forget(rt, fd);
    }
    tasync_runtime_destroy(rt);
}

// ========================================================== timer churn

std::vector<double> churn_timeouts() {
    std::mt19937 rng(42);
    std::vector<double> t(kRearms);
    for (auto &x : t) x = 1.0 + (rng() % 100000) / 1000.0;  // 1..101 s, never fires
    return t;
}

void timer_rearm_raw_uv(benchmark::State &state) {
    uv_loop_t loop;
    uv_loop_init(&loop);
    std::vector<uv_timer_t> timers(kLiveTimers);
    auto timeouts = churn_timeouts();
    std::vector<std::uint64_t> ms(kRearms);
    for (int k = 0; k < kRearms; ++k) ms[k] = static_cast<std::uint64_t>(timeouts[k] * 1000);
    auto cb = [](uv_timer_t *) {};
    for (int i = 0; i < kLiveTimers; ++i) {
        uv_timer_init(&loop, &timers[i]);
        uv_timer_start(&timers[i], cb, ms[i], 0);
    }
    for (auto _ : state) {
        for (int k = 0; k < kRearms; ++k) uv_timer_start(&timers[k % kLiveTimers], cb, ms[k], 0);
    }
    tasync_bench::report_ops(state, kRearms);
    for (auto &t : timers) uv_close(reinterpret_cast<uv_handle_t *>(&t), nullptr);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
}

void timer_rearm_raw_ev(benchmark::State &state) {
    struct ev_loop *loop = ev_loop_new(EVFLAG_AUTO);
    std::vector<ev_timer> timers(kLiveTimers);
    auto timeouts = churn_timeouts();
    for (int i = 0; i < kLiveTimers; ++i) {
        ev_timer_init(&timers[i], [](struct ev_loop *, ev_timer *, int) {}, 0., timeouts[i]);
        ev_timer_again(loop, &timers[i]);
    }
    for (auto _ : state) {
        for (int k = 0; k < kRearms; ++k) {
            ev_timer &t = timers[k % kLiveTimers];
            t.repeat = timeouts[k];
            ev_timer_again(loop, &t);  // re-arm in place (heap adjust)
        }
    }
    tasync_bench::report_ops(state, kRearms);
    for (auto &t : timers) ev_timer_stop(loop, &t);
    ev_loop_destroy(loop);
}

// The same, with the clock read at every re-arm (ev_now_update), as the
// runtime reads it (tasync_timer_start counts the deadline from the clock
// read when the timer is armed, so that no timer ends early; libev's
// ev_timer_again counts from the loop's cached time, which is as old as
// the last loop iteration).
void timer_rearm_raw_ev_clock(benchmark::State &state) {
    struct ev_loop *loop = ev_loop_new(EVFLAG_AUTO);
    std::vector<ev_timer> timers(kLiveTimers);
    auto timeouts = churn_timeouts();
    for (int i = 0; i < kLiveTimers; ++i) {
        ev_timer_init(&timers[i], [](struct ev_loop *, ev_timer *, int) {}, 0., timeouts[i]);
        ev_timer_again(loop, &timers[i]);
    }
    for (auto _ : state) {
        for (int k = 0; k < kRearms; ++k) {
            ev_timer &t = timers[k % kLiveTimers];
            t.repeat = timeouts[k];
            ev_now_update(loop);
            ev_timer_again(loop, &t);
        }
    }
    tasync_bench::report_ops(state, kRearms);
    for (auto &t : timers) ev_timer_stop(loop, &t);
    ev_loop_destroy(loop);
}

__kernel_timespec ts_of(double seconds) {
    __kernel_timespec ts;
    ts.tv_sec = static_cast<long long>(seconds);
    ts.tv_nsec = static_cast<long long>((seconds - static_cast<double>(ts.tv_sec)) * 1e9);
    return ts;
}

// Reaps every CQE present; counts the errors that are not expected.
void uring_drain(struct io_uring *ring, int expected_res, int *unexpected) {
    unsigned head, n = 0;
    struct io_uring_cqe *cqe;
    io_uring_for_each_cqe(ring, head, cqe) {
        ++n;
        if (cqe->res != expected_res) ++*unexpected;
    }
    io_uring_cq_advance(ring, n);
}

// io_uring's timers are timeout operations in the kernel; re-arming one is
// a timeout-update operation. They are batched 128 to an io_uring_enter.
void timer_rearm_raw_uring(benchmark::State &state) {
    struct io_uring ring;
    if (tasync_bench::uring_setup(256, &ring) != 0) {
        state.SkipWithError("io_uring_queue_init failed");
        return;
    }
    auto timeouts = churn_timeouts();
    std::vector<__kernel_timespec> ts(kRearms);
    for (int k = 0; k < kRearms; ++k) ts[k] = ts_of(timeouts[k]);
    int unexpected = 0;
    for (int i = 0; i < kLiveTimers; ++i) {
        struct io_uring_sqe *sqe = tasync_bench::uring_sqe(&ring);
        io_uring_prep_timeout(sqe, &ts[i], 0, 0);
        io_uring_sqe_set_data64(sqe, static_cast<std::uint64_t>(i) + 1);
    }
    io_uring_submit(&ring);
    for (auto _ : state) {
        for (int k = 0; k < kRearms; ++k) {
            struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
            io_uring_prep_timeout_update(sqe, &ts[k], static_cast<std::uint64_t>(k % kLiveTimers) + 1, 0);
            io_uring_sqe_set_data64(sqe, 0);
            if ((k & 127) == 127) {
                io_uring_submit_and_get_events(&ring);
                uring_drain(&ring, 0, &unexpected);
            }
        }
        io_uring_submit_and_get_events(&ring);
        uring_drain(&ring, 0, &unexpected);
    }
    tasync_bench::report_ops(state, kRearms);
    if (unexpected != 0) state.SkipWithError("a timeout update failed");
    io_uring_queue_exit(&ring);
}

void timer_rearm_rt(benchmark::State &state, const char *backend) {
    tasync_runtime_t *rt = make_runtime(state, backend);
    if (rt == nullptr) return;
    std::vector<tasync_timer_t *> timers(kLiveTimers);
    auto timeouts = churn_timeouts();
    std::vector<std::uint64_t> ns(kRearms);
    for (int k = 0; k < kRearms; ++k) ns[k] = static_cast<std::uint64_t>(timeouts[k] * 1e9);
    for (int i = 0; i < kLiveTimers; ++i) {
        tasync_timer_create(rt, [](tasync_timer_t *, void *) {}, nullptr, &timers[i]);
        tasync_timer_start(timers[i], ns[i], 0);
    }
    for (auto _ : state) {
        for (int k = 0; k < kRearms; ++k) tasync_timer_start(timers[k % kLiveTimers], ns[k], 0);
    }
    tasync_bench::report_ops(state, kRearms);
    for (auto *t : timers) tasync_timer_destroy(t);
    tasync_runtime_destroy(rt);
}

// ---- fire: every timer due at once, each re-armed from its callback

struct FireCount {
    int started = 0, fired = 0;
    // The timeout of the next start: 0..999 ns, a permutation-like spread.
    std::uint64_t next_ns() { return static_cast<std::uint64_t>(started++) * 7919u % 1000u; }
};

void timer_fire_raw_uv(benchmark::State &state) {
    uv_loop_t loop;
    uv_loop_init(&loop);
    FireCount fc;
    loop.data = &fc;
    std::vector<uv_timer_t> timers(kLiveTimers);
    for (auto &t : timers) uv_timer_init(&loop, &t);
    static const uv_timer_cb cb = [](uv_timer_t *t) {
        auto *fc = static_cast<FireCount *>(t->loop->data);
        ++fc->fired;
        if (fc->started < kFires) {
            fc->next_ns();  // rounds to 0 ms
            uv_timer_start(t, cb, 0, 0);
        }
    };
    for (auto _ : state) {
        fc = FireCount{};
        for (auto &t : timers) {
            fc.next_ns();
            uv_timer_start(&t, cb, 0, 0);
        }
        uv_run(&loop, UV_RUN_DEFAULT);
        if (fc.fired != kFires) die("uv timer count");
    }
    tasync_bench::report_ops(state, kFires);
    for (auto &t : timers) uv_close(reinterpret_cast<uv_handle_t *>(&t), nullptr);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
}

void timer_fire_raw_ev(benchmark::State &state) {
    struct ev_loop *loop = ev_loop_new(EVFLAG_AUTO);
    FireCount fc;
    ev_set_userdata(loop, &fc);
    std::vector<ev_timer> timers(kLiveTimers);
    for (auto &t : timers) {
        ev_timer_init(&t, [](struct ev_loop *loop, ev_timer *w, int) {
            auto *fc = static_cast<FireCount *>(ev_userdata(loop));
            ++fc->fired;
            if (fc->started < kFires) {
                ev_timer_set(w, static_cast<double>(fc->next_ns()) * 1e-9, 0.);
                ev_timer_start(loop, w);
            }
        }, 0., 0.);
    }
    for (auto _ : state) {
        fc = FireCount{};
        for (auto &t : timers) {
            ev_timer_set(&t, static_cast<double>(fc.next_ns()) * 1e-9, 0.);
            ev_timer_start(loop, &t);
        }
        ev_run(loop, 0);
        if (fc.fired != kFires) die("ev timer count");
    }
    tasync_bench::report_ops(state, kFires);
    ev_loop_destroy(loop);
}

// Each kernel timeout costs an hrtimer and an interrupt: a tenth of the
// fires keeps the iteration short (the figure is per fire).
constexpr int kUringFires = kFires / 10;

void timer_fire_raw_uring(benchmark::State &state) {
    struct io_uring ring;
    if (tasync_bench::uring_setup(2048, &ring) != 0) {
        state.SkipWithError("io_uring_queue_init failed");
        return;
    }
    // The kernel reads a timeout's timespec when the SQE is submitted: one
    // slot per timer, not reused before that timer's CQE.
    std::vector<__kernel_timespec> ts(kLiveTimers);
    auto queue = [&ring, &ts](std::uint64_t i, std::uint64_t ns) {
        ts[i].tv_sec = 0;
        ts[i].tv_nsec = static_cast<long long>(ns);
        struct io_uring_sqe *sqe = tasync_bench::uring_sqe(&ring);
        io_uring_prep_timeout(sqe, &ts[i], 0, 0);
        io_uring_sqe_set_data64(sqe, i);
    };
    for (auto _ : state) {
        FireCount fc;
        for (int i = 0; i < kLiveTimers; ++i) queue(static_cast<std::uint64_t>(i), fc.next_ns());
        while (fc.fired < kUringFires) {
            if (int rc = io_uring_submit_and_wait(&ring, 1); rc < 0 && rc != -EINTR) die("io_uring_submit_and_wait");
            unsigned head, n = 0;
            struct io_uring_cqe *cqe;
            io_uring_for_each_cqe(&ring, head, cqe) {
                ++n;
                if (cqe->res != -ETIME) die("io_uring timeout");
                ++fc.fired;
                if (fc.started < kUringFires) queue(cqe->user_data, fc.next_ns());
            }
            io_uring_cq_advance(&ring, n);
        }
    }
    tasync_bench::report_ops(state, kUringFires);
    io_uring_queue_exit(&ring);
}

void timer_fire_rt(benchmark::State &state, const char *backend) {
    tasync_runtime_t *rt = make_runtime(state, backend);
    if (rt == nullptr) return;
    FireCount fc;
    std::vector<tasync_timer_t *> timers(kLiveTimers);
    for (auto &t : timers) {
        tasync_timer_create(rt, [](tasync_timer_t *t, void *data) {
            auto *fc = static_cast<FireCount *>(data);
            ++fc->fired;
            if (fc->started < kFires) tasync_timer_start(t, fc->next_ns(), 0);
        }, &fc, &t);
    }
    for (auto _ : state) {
        fc = FireCount{};
        for (auto *t : timers) tasync_timer_start(t, fc.next_ns(), 0);
        tasync_runtime_run(rt);
        if (fc.fired != kFires) die("runtime timer count");
    }
    tasync_bench::report_ops(state, kFires);
    for (auto *t : timers) tasync_timer_destroy(t);
    tasync_runtime_destroy(rt);
}

std::string name(const char *what, const char *backend) { return std::string(what) + "_" + backend; }

}  // namespace

int main(int argc, char **argv) {
    using tasync_bench::Comparison;
    const auto ms = benchmark::kMillisecond;
    benchmark::RegisterBenchmark("pingpong_raw_uv", pingpong_raw_uv)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    benchmark::RegisterBenchmark("pingpong_raw_ev", pingpong_raw_ev)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    benchmark::RegisterBenchmark("pingpong_raw_uring_rw", pingpong_raw_uring_rw)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    benchmark::RegisterBenchmark("pingpong_raw_uring_poll", pingpong_raw_uring_poll)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    for (const char *b : kBackends) {
        benchmark::RegisterBenchmark(name("pingpong_rt_fd", b).c_str(), pingpong_rt_fd, b)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
        benchmark::RegisterBenchmark(name("pingpong_rt_op", b).c_str(), pingpong_rt_op, b)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    }
    benchmark::RegisterBenchmark("timer_rearm_raw_uv", timer_rearm_raw_uv)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    benchmark::RegisterBenchmark("timer_rearm_raw_ev", timer_rearm_raw_ev)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    benchmark::RegisterBenchmark("timer_rearm_raw_ev_clock", timer_rearm_raw_ev_clock)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    benchmark::RegisterBenchmark("timer_rearm_raw_uring", timer_rearm_raw_uring)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    benchmark::RegisterBenchmark("timer_fire_raw_uv", timer_fire_raw_uv)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    benchmark::RegisterBenchmark("timer_fire_raw_ev", timer_fire_raw_ev)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    benchmark::RegisterBenchmark("timer_fire_raw_uring", timer_fire_raw_uring)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    for (const char *b : kBackends) {
        benchmark::RegisterBenchmark(name("timer_rearm_rt", b).c_str(), timer_rearm_rt, b)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
        benchmark::RegisterBenchmark(name("timer_fire_rt", b).c_str(), timer_fire_rt, b)->Unit(ms)->Apply(tasync_bench::fixed_iterations);
    }
    // Throughput: ratio = baseline ns / measured ns, goal >= 0.9 (>= 2 for
    // the uring backend against the uv backend; >= 0.5 for timer re-arms).
    return tasync_bench::run_with_ratios(argc, argv, {
        {"pingpong_rt_fd_uv", "pingpong_raw_uv", 0.9, false},
        {"pingpong_rt_op_uv", "pingpong_raw_uv", 0.9, false},
        {"pingpong_rt_fd_ev", "pingpong_raw_ev", 0.9, false},
        {"pingpong_rt_op_ev", "pingpong_raw_ev", 0.9, false},
        {"pingpong_rt_op_uring", "pingpong_raw_uring_rw", 0.9, false},
        {"pingpong_rt_fd_uring", "pingpong_raw_uring_poll", 0.9, false},
        {"pingpong_rt_op_uring", "pingpong_rt_fd_uv", 2.0, false},
        {"pingpong_rt_op_uring", "pingpong_rt_op_uv", 2.0, false},
        {"pingpong_raw_uring_rw", "pingpong_raw_uv", 2.0, false},
        // Issue 24: a re-arm costs at most 2x the raw library's (throughput
        // >= 0.5x). Against libev also with the clock read per re-arm, what
        // the runtime does for its never-early deadlines.
        {"timer_rearm_rt_uv", "timer_rearm_raw_uv", 0.5, false},
        {"timer_rearm_rt_ev", "timer_rearm_raw_ev", 0.5, false},
        {"timer_rearm_rt_ev", "timer_rearm_raw_ev_clock", 0.5, false},
        {"timer_rearm_rt_uring", "timer_rearm_raw_uring", 0.5, false},
        {"timer_fire_rt_uv", "timer_fire_raw_uv", 0.9, false},
        {"timer_fire_rt_ev", "timer_fire_raw_ev", 0.9, false},
        {"timer_fire_rt_uring", "timer_fire_raw_uring", 0.9, false},
    }, tasync_bench::Basis::Cpu,
    // Repetitions in random order, compared by their medians: a burst of
    // load from another process then hits one repetition of one benchmark,
    // not a whole benchmark, and both sides of every ratio alike.
    {"--benchmark_repetitions=3", "--benchmark_enable_random_interleaving=true",
     "--benchmark_report_aggregates_only=true"});
}
