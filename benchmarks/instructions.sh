#!/bin/sh
# Instructions (callgrind) or simulated cache misses (cachegrind) per
# operation of one Google Benchmark of this folder, independent of the
# machine's load: the benchmark runs twice under valgrind for a fixed number
# of iterations (TASYNC_BENCH_ITERATIONS, ratio.hpp's fixed_iterations), and
# the difference is divided by the operations between the two runs.
#
#   benchmarks/instructions.sh PROGRAM BENCHMARK OPS_PER_ITERATION [LOW HIGH] [cachegrind]
#   e.g. TASYNC_BACKEND_DIR=$PWD/build-release/backends \
#        benchmarks/instructions.sh build-release/benchmarks/scheduler-bench BM_RoundRobinRuntime 1000000 1 3
set -eu
prog=$1 bench=$2 ops=$3 low=${4:-1000} high=${5:-3000} tool=${6:-callgrind}
out=$(mktemp -d "${TMPDIR:-/tmp}/tasync-instr.XXXXXX")
trap 'rm -rf "$out"' EXIT
run() {
    extra=""
    [ "$tool" = cachegrind ] && extra="--cache-sim=yes"
    TASYNC_BENCH_ITERATIONS=$1 valgrind --tool="$tool" $extra --"$tool"-out-file="$out/$1" \
        "$prog" --benchmark_filter="^$bench(/iterations:[0-9]+)?\$" >/dev/null 2>"$out/$1.log" || { cat "$out/$1.log"; exit 1; }
    sed -n 's/^events: //p' "$out/$1" | head -1 > "$out/$1.events"
    sed -n 's/^\(summary\|totals\): //p' "$out/$1" | tail -1 > "$out/$1.totals"
}
run "$low"
run "$high"
python3 - "$out" "$low" "$high" "$ops" "$bench" <<'PY'
import sys
out, low, high, ops, bench = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
events = open(f"{out}/{high}.events").read().split()
a = list(map(int, open(f"{out}/{low}.totals").read().split()))
b = list(map(int, open(f"{out}/{high}.totals").read().split()))
per = {e: (y - x) / ((high - low) * ops) for e, x, y in zip(events, a, b)}
line = f"{bench}: {per['Ir']:.1f} Ir/op"
if 'D1mr' in per:
    line += f", {per['D1mr'] + per['D1mw']:.2f} D1 misses/op, {per['DLmr'] + per['DLmw'] + per['ILmr']:.2f} LL misses/op (simulated)"
print(line)
PY
