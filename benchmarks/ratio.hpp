// Prints, after the Google Benchmark table, each measured figure as a ratio
// to a baseline measured in the same process, and whether it meets its goal.
// Benchmarks report "ops_per_iter" (a counter) so that ratios compare the
// same unit of work regardless of how many ops one iteration does.
// Ratios use wall time by default; Basis::Cpu uses the process's CPU time
// instead, which another process's load on a shared machine disturbs far
// less (for single-threaded benchmarks that never sleep the two agree on a
// quiet machine).
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace tasync_bench {

enum class Basis { Real, Cpu };

struct Comparison {
    std::string name;      // benchmark measured
    std::string baseline;  // benchmark it is compared with
    double goal;           // the ratio that meets the goal
    bool lower_is_better;  // time per op: lower is better; throughput: higher
};

class RatioReporter : public benchmark::ConsoleReporter {
public:
    explicit RatioReporter(std::vector<Comparison> cmp, Basis basis = Basis::Real)
        : cmp_(std::move(cmp)), basis_(basis) {}

    void ReportRuns(const std::vector<Run> &runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run &r : runs) {
            if (r.run_type != Run::RT_Iteration && r.aggregate_name != "median") continue;
            auto it = r.counters.find("ops_per_iter");
            if (it == r.counters.end() || r.iterations == 0) continue;
            std::string name = r.run_name.function_name;
            // An aggregate (--benchmark_repetitions) is scaled so that this
            // also gives its statistic of the time per iteration.
            double t = basis_ == Basis::Cpu ? r.cpu_accumulated_time : r.real_accumulated_time;
            ns_[name] = t * 1e9 / static_cast<double>(r.iterations) / it->second.value;
        }
    }

    void Finalize() override {
        ConsoleReporter::Finalize();
        const char *unit = basis_ == Basis::Cpu ? "cpu ns/op" : "ns/op";
        std::printf("\n%-34s %12s %-30s %12s %8s %8s  %s\n", "measured", unit, "baseline (same run)", unit,
                    "ratio", "goal", "");
        for (const Comparison &c : cmp_) {
            auto a = ns_.find(c.name), b = ns_.find(c.baseline);
            if (a == ns_.end() || b == ns_.end()) continue;
            double ratio = c.lower_is_better ? a->second / b->second : b->second / a->second;
            bool ok = c.lower_is_better ? ratio <= c.goal : ratio >= c.goal;
            std::printf("%-34s %12.2f %-30s %12.2f %7.3fx %s%6.2fx  %s\n", c.name.c_str(), a->second,
                        c.baseline.c_str(), b->second, ratio, c.lower_is_better ? "<=" : ">=", c.goal,
                        ok ? "goal met" : "GOAL MISSED");
        }
        std::fflush(stdout);
    }

private:
    std::vector<Comparison> cmp_;
    std::map<std::string, double> ns_;
    Basis basis_;
};

// defaults: flags placed before the command line's own (which win, being
// parsed later), e.g. {"--benchmark_repetitions=5"}.
inline int run_with_ratios(int argc, char **argv, std::vector<Comparison> cmp, Basis basis = Basis::Real,
                           std::vector<std::string> defaults = {}) {
    std::vector<char *> args;
    args.push_back(argv[0]);
    for (std::string &d : defaults) args.push_back(d.data());
    for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
    int n = static_cast<int>(args.size());
    args.push_back(nullptr);
    argv = args.data();
    argc = n;
    benchmark::Initialize(&argc, argv);
    RatioReporter reporter(std::move(cmp), basis);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
}

// TASYNC_BENCH_ITERATIONS=N in the environment runs every benchmark that
// applies this for exactly N iterations (BENCHMARK(f)->Apply(fixed_iterations)):
// two runs under valgrind with different N give instructions (callgrind) or
// simulated cache misses (cachegrind) per operation, figures that the
// machine's load does not change (benchmarks/instructions.sh).
inline void fixed_iterations(benchmark::internal::Benchmark *b) {
    if (const char *n = std::getenv("TASYNC_BENCH_ITERATIONS"); n != nullptr && std::atoll(n) > 0)
        b->Iterations(std::atoll(n));
}

// Declares how many operations one iteration performs; the reporter derives
// ns per operation from the wall time.
inline void report_ops(benchmark::State &state, double ops_per_iteration) {
    state.counters["ops_per_iter"] = ops_per_iteration;
    state.SetItemsProcessed(static_cast<int64_t>(static_cast<double>(state.iterations()) * ops_per_iteration));
}

}  // namespace tasync_bench
