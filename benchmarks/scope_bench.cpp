// Structured concurrency at scale (issue: structured concurrency): the
// per-coroutine cost of cancelling a scope of 100k suspended coroutines, and
// of spawning 100k coroutines into a scope and awaiting its completion.
// Baselines measured in the same process: the same 100k coroutines woken one
// by one with tasync_resume, and spawned into the global scope and run to the
// end with tasync_runtime_run (no scope bookkeeping a program can see).
#include <tasync/tasync.h>

#include <cstdlib>
#include <vector>

#include "bench_runtime.hpp"
#include "ratio.hpp"

namespace {

constexpr int kCount = 100000;

tasync_runtime_t *make_runtime() {
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    o.stack_size = 64 * 1024;
    o.stack_cache = kCount;  // steady state: no mapping inside the timed part
    tasync_runtime_t *rt = tasync_bench::create_runtime(o);
    return rt;
}

void empty_entry(tasync_coroutine_t *, void *) {}

void park_entry(tasync_coroutine_t *, void *) {
    void *v = nullptr, *e = nullptr;
    tasync_suspend(nullptr, &v, &e);
    tasync_value_release(nullptr, v);
    tasync_error_release(nullptr, e);
}

// 100k coroutines parked in tasync_suspend, in scope s (NULL: global); their
// references in *out when not NULL.
void park_all(tasync_runtime_t *rt, tasync_scope_t *s, std::vector<tasync_coroutine_t *> *out) {
    tasync_spawn_options_t so{};
    so.size = sizeof(so);
    so.entry = park_entry;
    so.scope = s;
    for (int i = 0; i < kCount; ++i) {
        tasync_coroutine_t *co = nullptr;
        tasync_spawn(rt, &so, out != nullptr ? &co : nullptr, nullptr);
        if (out != nullptr) out->push_back(co);
    }
    tasync_yield(rt, nullptr);  // every one of them runs up to its suspension
}

// Baseline: wake 100k parked coroutines one by one and let them finish.
void BM_Resume100kParked(benchmark::State &state) {
    tasync_runtime_t *rt = make_runtime();
    std::vector<tasync_coroutine_t *> cos;
    cos.reserve(kCount);
    for (auto _ : state) {
        state.PauseTiming();
        park_all(rt, nullptr, &cos);
        state.ResumeTiming();
        for (tasync_coroutine_t *co : cos) tasync_resume(co, nullptr);
        tasync_runtime_run(rt);
        state.PauseTiming();
        for (tasync_coroutine_t *co : cos) tasync_coroutine_release(co);
        cos.clear();
        state.ResumeTiming();
    }
    tasync_bench::report_ops(state, kCount);
    tasync_runtime_destroy(rt);
}
BENCHMARK(BM_Resume100kParked)->Unit(benchmark::kMillisecond);

// Cancelling a scope of 100k suspended coroutines, until all have finished.
void BM_ScopeCancel100kSuspended(benchmark::State &state) {
    tasync_runtime_t *rt = make_runtime();
    for (auto _ : state) {
        state.PauseTiming();
        tasync_scope_t *s = nullptr;
        tasync_scope_create(rt, nullptr, &s, nullptr);
        park_all(rt, s, nullptr);
        state.ResumeTiming();
        tasync_scope_cancel(s, nullptr);
        tasync_scope_await_after_cancellation(rt, s, nullptr, nullptr, nullptr, nullptr);
        state.PauseTiming();
        tasync_scope_release(s);
        state.ResumeTiming();
    }
    tasync_bench::report_ops(state, kCount);
    tasync_runtime_destroy(rt);
}
BENCHMARK(BM_ScopeCancel100kSuspended)->Unit(benchmark::kMillisecond);

// Baseline: spawn 100k empty coroutines into the global scope and run them.
void BM_Spawn100kGlobalRun(benchmark::State &state) {
    tasync_runtime_t *rt = make_runtime();
    tasync_spawn_options_t so{};
    so.size = sizeof(so);
    so.entry = empty_entry;
    for (auto _ : state) {
        for (int i = 0; i < kCount; ++i) tasync_spawn(rt, &so, nullptr, nullptr);
        tasync_runtime_run(rt);
    }
    tasync_bench::report_ops(state, kCount);
    tasync_runtime_destroy(rt);
}
BENCHMARK(BM_Spawn100kGlobalRun)->Unit(benchmark::kMillisecond);

// Spawning 100k coroutines into a new scope and awaiting its completion.
void BM_ScopeSpawn100kAwaitCompletion(benchmark::State &state) {
    tasync_runtime_t *rt = make_runtime();
    tasync_spawn_options_t so{};
    so.size = sizeof(so);
    so.entry = empty_entry;
    for (auto _ : state) {
        tasync_scope_t *s = nullptr;
        tasync_scope_create(rt, nullptr, &s, nullptr);
        so.scope = s;
        for (int i = 0; i < kCount; ++i) tasync_spawn(rt, &so, nullptr, nullptr);
        tasync_scope_await_completion(rt, s, nullptr, nullptr);
        tasync_scope_release(s);
    }
    tasync_bench::report_ops(state, kCount);
    tasync_runtime_destroy(rt);
}
BENCHMARK(BM_ScopeSpawn100kAwaitCompletion)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char **argv) {
    // No goals in the issue for these: the ratio says what the scope costs
    // over the same work without one (goal column: informational bound).
    return tasync_bench::run_with_ratios(argc, argv, {
        {"BM_ScopeCancel100kSuspended", "BM_Resume100kParked", 2.0, true},
        {"BM_ScopeSpawn100kAwaitCompletion", "BM_Spawn100kGlobalRun", 1.5, true},
    });
}
