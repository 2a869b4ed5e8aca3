// Scheduler costs against raw Boost.Context baselines measured in the same
// process (issue goals: suspend/resume <= 1.3x a bare round robin; spawn +
// run + finish <= 2x create/run/destroy on a pooled guard-paged stack, with
// no system call per spawn in steady state).
#include <sys/mman.h>
#include <unistd.h>

#include <boost/context/detail/fcontext.hpp>
#include <boost/context/fiber.hpp>

#include <tasync/tasync.h>

#include <cstdlib>
#include <vector>

#include "bench_runtime.hpp"
#include "ratio.hpp"

namespace ctx = boost::context::detail;

namespace {

constexpr std::size_t kStack = 64 * 1024;
constexpr std::size_t kPage = 4096;

// A guard-paged stack, as the raw baselines use them.
struct RawStack {
    char *base = nullptr;
    std::size_t size = 0;
    char *top() const { return base + size; }
};

RawStack map_stack() {
    RawStack s;
    s.size = kStack + kPage;
    s.base = static_cast<char *>(mmap(nullptr, s.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (s.base == MAP_FAILED) std::abort();
    mprotect(s.base, kPage, PROT_NONE);
    return s;
}

void unmap_stack(RawStack s) { munmap(s.base, s.size); }

// ------------------------------------------------ raw context switch (baseline)

void bounce(ctx::transfer_t t) {
    for (;;) t = ctx::jump_fcontext(t.fctx, nullptr);
}

void BM_RawSwitch(benchmark::State &state) {
    RawStack s = map_stack();
    ctx::fcontext_t c = ctx::make_fcontext(s.top(), kStack, bounce);
    for (auto _ : state) {
        c = ctx::jump_fcontext(c, nullptr).fctx;  // there and back: 2 switches
    }
    tasync_bench::report_ops(state, 2);
    unmap_stack(s);
}
BENCHMARK(BM_RawSwitch)->Apply(tasync_bench::fixed_iterations);

// ------------------------------------- bare round robin (baseline, issue ~15 ns)

constexpr int kCoroutines = 1000;
constexpr int kSuspends = 1000;

struct Bare {
    ctx::fcontext_t self = nullptr;
    ctx::fcontext_t main = nullptr;
    bool done = false;
};

void bare_body(ctx::transfer_t t) {
    auto *b = static_cast<Bare *>(t.data);
    b->main = t.fctx;
    for (int i = 0; i < kSuspends; ++i) b->main = ctx::jump_fcontext(b->main, b).fctx;  // suspend
    b->done = true;
    ctx::jump_fcontext(b->main, b);
}

void BM_RoundRobinBare(benchmark::State &state) {
    std::vector<RawStack> stacks;
    for (int i = 0; i < kCoroutines; ++i) stacks.push_back(map_stack());
    std::vector<Bare> co(kCoroutines);
    for (auto _ : state) {
        for (int i = 0; i < kCoroutines; ++i) {
            co[i] = Bare{};
            co[i].self = ctx::make_fcontext(stacks[i].top(), kStack, bare_body);
        }
        // The scheduler: resume each runnable coroutine in turn (FIFO).
        int live = kCoroutines;
        while (live > 0) {
            for (int i = 0; i < kCoroutines; ++i) {
                if (co[i].done) continue;
                ctx::transfer_t t = ctx::jump_fcontext(co[i].self, &co[i]);
                co[i].self = t.fctx;
                if (co[i].done) --live;
            }
        }
    }
    tasync_bench::report_ops(state, double(kCoroutines) * kSuspends);
    for (auto &s : stacks) unmap_stack(s);
}
BENCHMARK(BM_RoundRobinBare)->Unit(benchmark::kMillisecond)->Apply(tasync_bench::fixed_iterations);

// The same round robin written with boost::context::fiber (the public API).
void BM_RoundRobinBoostFiber(benchmark::State &state) {
    namespace bc = boost::context;
    struct Slot {
        bc::fiber f;
        bool done = false;
    };
    for (auto _ : state) {
        state.PauseTiming();  // creating the fibers is not part of the figure
        std::vector<Slot> co(kCoroutines);
        for (auto &slot : co) {
            Slot *self = &slot;
            slot.f = bc::fiber(std::allocator_arg, bc::fixedsize_stack(kStack), [self](bc::fiber &&sched) {
                for (int i = 0; i < kSuspends; ++i) sched = std::move(sched).resume();  // suspend
                self->done = true;
                return std::move(sched);
            });
        }
        state.ResumeTiming();
        int live = kCoroutines;
        while (live > 0) {
            for (auto &slot : co) {
                if (slot.done) continue;
                slot.f = std::move(slot.f).resume();
                if (slot.done) --live;
            }
        }
    }
    tasync_bench::report_ops(state, double(kCoroutines) * kSuspends);
}
BENCHMARK(BM_RoundRobinBoostFiber)->Unit(benchmark::kMillisecond)->Apply(tasync_bench::fixed_iterations);

// ------------------------------------------------- the same through the runtime

tasync_runtime_t *make_runtime() {
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    o.stack_size = kStack;
    o.stack_cache = 2048;
    tasync_runtime_t *rt = tasync_bench::create_runtime(o);
    return rt;
}

void BM_RoundRobinRuntime(benchmark::State &state) {
    tasync_runtime_t *rt = make_runtime();
    for (auto _ : state) {
        for (int i = 0; i < kCoroutines; ++i) {
            tasync_spawn_options_t so{};
            so.size = sizeof(so);
            so.entry = [](tasync_coroutine_t *, void *r) {
                auto *rt = static_cast<tasync_runtime_t *>(r);
                for (int k = 0; k < kSuspends; ++k) tasync_yield(rt, nullptr);
            };
            so.arg = rt;
            tasync_spawn(rt, &so, nullptr, nullptr);
        }
        tasync_runtime_run(rt);
    }
    tasync_bench::report_ops(state, double(kCoroutines) * kSuspends);
    tasync_runtime_destroy(rt);
}
BENCHMARK(BM_RoundRobinRuntime)->Unit(benchmark::kMillisecond)->Apply(tasync_bench::fixed_iterations);

// ------------------------- create + run + destroy on a pooled stack (baseline)

void empty_body(ctx::transfer_t t) { ctx::jump_fcontext(t.fctx, nullptr); }

void BM_SpawnRawPooled(benchmark::State &state) {
    std::vector<RawStack> pool;
    for (int i = 0; i < 16; ++i) pool.push_back(map_stack());
    for (auto _ : state) {
        RawStack s = pool.back();  // take from the pool
        pool.pop_back();
        ctx::fcontext_t c = ctx::make_fcontext(s.top(), kStack, empty_body);
        ctx::jump_fcontext(c, nullptr);  // run to completion
        pool.push_back(s);               // give it back
    }
    tasync_bench::report_ops(state, 1);
    for (auto &s : pool) unmap_stack(s);
}
BENCHMARK(BM_SpawnRawPooled)->Apply(tasync_bench::fixed_iterations);

// The same through Boost.Context's public API: boost::context::fiber with
// a pooled guard-paged stack allocator (the fiber keeps its control record
// on the stack and unwinds it on exit).
struct PooledGuardedStacks {
    std::vector<boost::context::stack_context> free;
    boost::context::stack_context allocate() {
        if (!free.empty()) {
            auto sc = free.back();
            free.pop_back();
            return sc;
        }
        RawStack s = map_stack();
        boost::context::stack_context sc;
        sc.sp = s.top();
        sc.size = kStack;
        return sc;
    }
    void deallocate(boost::context::stack_context &sc) noexcept { free.push_back(sc); }
};

struct PoolRef {
    PooledGuardedStacks *pool;
    boost::context::stack_context allocate() { return pool->allocate(); }
    void deallocate(boost::context::stack_context &sc) noexcept { pool->deallocate(sc); }
};

void BM_SpawnBoostFiberPooled(benchmark::State &state) {
    PooledGuardedStacks pool;
    for (auto _ : state) {
        boost::context::fiber f(std::allocator_arg, PoolRef{&pool},
                                [](boost::context::fiber &&caller) { return std::move(caller); });
        f = std::move(f).resume();  // runs to completion; the stack returns to the pool
    }
    tasync_bench::report_ops(state, 1);
    for (auto &sc : pool.free) munmap(static_cast<char *>(sc.sp) - kStack - kPage, kStack + kPage);
}
BENCHMARK(BM_SpawnBoostFiberPooled)->Apply(tasync_bench::fixed_iterations);

// The same with a fresh mmap per coroutine, to show what pooling saves.
void BM_SpawnRawMmap(benchmark::State &state) {
    for (auto _ : state) {
        RawStack s = map_stack();
        ctx::fcontext_t c = ctx::make_fcontext(s.top(), kStack, empty_body);
        ctx::jump_fcontext(c, nullptr);
        unmap_stack(s);
    }
    tasync_bench::report_ops(state, 1);
}
BENCHMARK(BM_SpawnRawMmap)->Apply(tasync_bench::fixed_iterations);

// spawn + run + finish through the runtime: spawn one empty coroutine and
// yield to it; it runs, finishes and control comes back.
void BM_SpawnRuntime(benchmark::State &state) {
    tasync_runtime_t *rt = make_runtime();
    tasync_spawn_options_t so{};
    so.size = sizeof(so);
    so.entry = [](tasync_coroutine_t *, void *) {};
    for (auto _ : state) {
        tasync_spawn(rt, &so, nullptr, nullptr);
        tasync_yield(rt, nullptr);
    }
    tasync_bench::report_ops(state, 1);
    tasync_runtime_run(rt);
    tasync_runtime_destroy(rt);
}
BENCHMARK(BM_SpawnRuntime)->Apply(tasync_bench::fixed_iterations);

// Spawning in batches, the way a server spawns per connection.
void BM_SpawnRuntimeBatch1000(benchmark::State &state) {
    tasync_runtime_t *rt = make_runtime();
    tasync_spawn_options_t so{};
    so.size = sizeof(so);
    so.entry = [](tasync_coroutine_t *, void *) {};
    for (auto _ : state) {
        for (int i = 0; i < 1000; ++i) tasync_spawn(rt, &so, nullptr, nullptr);
        tasync_runtime_run(rt);
    }
    tasync_bench::report_ops(state, 1000);
    tasync_runtime_destroy(rt);
}
BENCHMARK(BM_SpawnRuntimeBatch1000)->Apply(tasync_bench::fixed_iterations);

}  // namespace

int main(int argc, char **argv) {
    return tasync_bench::run_with_ratios(argc, argv, {
        {"BM_RoundRobinRuntime", "BM_RoundRobinBare", 1.3, true},
        {"BM_RoundRobinRuntime", "BM_RoundRobinBoostFiber", 1.3, true},
        {"BM_SpawnRuntime", "BM_SpawnRawPooled", 2.0, true},
        {"BM_SpawnRuntimeBatch1000", "BM_SpawnRawPooled", 2.0, true},
        {"BM_SpawnRuntime", "BM_SpawnBoostFiberPooled", 2.0, true},
        {"BM_SpawnRuntimeBatch1000", "BM_SpawnBoostFiberPooled", 2.0, true},
        {"BM_SpawnRawMmap", "BM_SpawnRawPooled", 1e9, true},
    });
}
