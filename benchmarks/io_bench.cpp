// Reactor costs against the raw libraries, measured in the same process
// (issue goals: pipe ping-pong through the runtime >= 0.9x the same
// ping-pong written directly on libuv; timer churn with 1000 live timers
// <= 2x libev's raw figure).
#include <ev.h>
#include <fcntl.h>
#include <unistd.h>
#include <uv.h>

#include <tasync/tasync.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "bench_runtime.hpp"
#include "ratio.hpp"

namespace {

constexpr int kRoundTrips = 20000;

struct Pipes {
    int a[2], b[2];
    Pipes() {
        if (pipe2(a, O_NONBLOCK | O_CLOEXEC) != 0 || pipe2(b, O_NONBLOCK | O_CLOEXEC) != 0) std::abort();
    }
    ~Pipes() {
        for (int fd : {a[0], a[1], b[0], b[1]}) close(fd);
    }
};

// ------------------------------------------ ping-pong directly on libuv

struct UvPingPong {
    Pipes p;
    uv_loop_t loop;
    uv_poll_t ping_in, pong_in;  // ping reads b, pong reads a
    int left = 0;
};

void BM_PingPongUvRaw(benchmark::State &state) {
    UvPingPong pp;
    uv_loop_init(&pp.loop);
    pp.loop.data = &pp;
    uv_poll_init(&pp.loop, &pp.pong_in, pp.p.a[0]);
    uv_poll_init(&pp.loop, &pp.ping_in, pp.p.b[0]);
    pp.pong_in.data = pp.ping_in.data = &pp;
    // pong: a byte on a -> send it back on b
    uv_poll_start(&pp.pong_in, UV_READABLE, [](uv_poll_t *h, int, int) {
        auto *pp = static_cast<UvPingPong *>(h->data);
        char c;
        if (read(pp->p.a[0], &c, 1) == 1 && write(pp->p.b[1], &c, 1) != 1) std::abort();
    });
    // ping: the byte came back -> one round trip done; send the next
    uv_poll_start(&pp.ping_in, UV_READABLE, [](uv_poll_t *h, int, int) {
        auto *pp = static_cast<UvPingPong *>(h->data);
        char c;
        if (read(pp->p.b[0], &c, 1) != 1) return;
        if (--pp->left > 0) {
            if (write(pp->p.a[1], &c, 1) != 1) std::abort();
        } else {
            uv_stop(&pp->loop);
        }
    });
    for (auto _ : state) {
        pp.left = kRoundTrips;
        char c = 'x';
        if (write(pp.p.a[1], &c, 1) != 1) std::abort();
        uv_run(&pp.loop, UV_RUN_DEFAULT);
    }
    tasync_bench::report_ops(state, kRoundTrips);
    uv_close(reinterpret_cast<uv_handle_t *>(&pp.ping_in), nullptr);
    uv_close(reinterpret_cast<uv_handle_t *>(&pp.pong_in), nullptr);
    uv_run(&pp.loop, UV_RUN_DEFAULT);
    uv_loop_close(&pp.loop);
}
BENCHMARK(BM_PingPongUvRaw)->Unit(benchmark::kMillisecond);

// -------------------------------------------- the same through the runtime

struct RtPingPong {
    Pipes p;
    tasync_runtime_t *rt;
};

void BM_PingPongRuntime(benchmark::State &state) {
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    o.backend = std::getenv("TASYNC_BENCH_BACKEND");
    tasync_runtime_t *rt = tasync_bench::create_runtime(o);
    RtPingPong pp;
    pp.rt = rt;
    for (auto _ : state) {
        tasync_spawn_options_t pong{};
        pong.size = sizeof(pong);
        pong.arg = &pp;
        pong.entry = [](tasync_coroutine_t *, void *arg) {
            auto *pp = static_cast<RtPingPong *>(arg);
            char c;
            // The same system calls as the libuv program: wait until
            // readable, read, write.
            for (int i = 0; i < kRoundTrips; ++i) {
                do tasync_await_fd(pp->rt, pp->p.a[0], TASYNC_IO_READABLE, nullptr, nullptr, nullptr);
                while (read(pp->p.a[0], &c, 1) != 1);
                if (write(pp->p.b[1], &c, 1) != 1) std::abort();
            }
        };
        tasync_spawn(rt, &pong, nullptr, nullptr);
        // ping runs in the main coroutine
        char c = 'x';
        for (int i = 0; i < kRoundTrips; ++i) {
            if (write(pp.p.a[1], &c, 1) != 1) std::abort();
            do tasync_await_fd(rt, pp.p.b[0], TASYNC_IO_READABLE, nullptr, nullptr, nullptr);
            while (read(pp.p.b[0], &c, 1) != 1);
        }
        tasync_runtime_run(rt);
    }
    tasync_bench::report_ops(state, kRoundTrips);
    tasync_fd_forget(rt, pp.p.a[0]);
    tasync_fd_forget(rt, pp.p.b[0]);
    tasync_runtime_destroy(rt);
}
BENCHMARK(BM_PingPongRuntime)->Unit(benchmark::kMillisecond);

// ----------------------------------------------------------- timer churn

constexpr int kLiveTimers = 1000;
constexpr int kRearms = 100000;

std::vector<double> churn_timeouts() {
    std::mt19937 rng(42);
    std::vector<double> t(kRearms);
    for (auto &x : t) x = 1.0 + (rng() % 100000) / 1000.0;  // 1..101 s, never fires
    return t;
}

void BM_TimerChurnLibev(benchmark::State &state) {
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
BENCHMARK(BM_TimerChurnLibev)->Unit(benchmark::kMillisecond);

void BM_TimerChurnLibuv(benchmark::State &state) {
    uv_loop_t loop;
    uv_loop_init(&loop);
    std::vector<uv_timer_t> timers(kLiveTimers);
    auto timeouts = churn_timeouts();
    for (int i = 0; i < kLiveTimers; ++i) {
        uv_timer_init(&loop, &timers[i]);
        uv_timer_start(&timers[i], [](uv_timer_t *) {}, static_cast<uint64_t>(timeouts[i] * 1000), 0);
    }
    for (auto _ : state) {
        for (int k = 0; k < kRearms; ++k)
            uv_timer_start(&timers[k % kLiveTimers], [](uv_timer_t *) {}, static_cast<uint64_t>(timeouts[k] * 1000), 0);
    }
    tasync_bench::report_ops(state, kRearms);
    for (auto &t : timers) uv_close(reinterpret_cast<uv_handle_t *>(&t), nullptr);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
}
BENCHMARK(BM_TimerChurnLibuv)->Unit(benchmark::kMillisecond);

void BM_TimerChurnRuntime(benchmark::State &state) {
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    o.backend = std::getenv("TASYNC_BENCH_BACKEND");
    tasync_runtime_t *rt = tasync_bench::create_runtime(o);
    std::vector<tasync_timer_t *> timers(kLiveTimers);
    auto timeouts = churn_timeouts();
    std::vector<uint64_t> ns(kRearms);
    for (int k = 0; k < kRearms; ++k) ns[k] = static_cast<uint64_t>(timeouts[k] * 1e9);
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
BENCHMARK(BM_TimerChurnRuntime)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char **argv) {
    return tasync_bench::run_with_ratios(argc, argv, {
        // throughput: raw_ns / runtime_ns must be >= 0.9
        {"BM_PingPongRuntime", "BM_PingPongUvRaw", 0.9, false},
        {"BM_TimerChurnRuntime", "BM_TimerChurnLibev", 2.0, true},
        {"BM_TimerChurnRuntime", "BM_TimerChurnLibuv", 2.0, true},
        {"BM_TimerChurnLibuv", "BM_TimerChurnLibev", 1e9, true},
    });
}
