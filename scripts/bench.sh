#!/usr/bin/env bash
# Builds the benchmark programs (build-bench/) and runs them; writes build-bench/bench.json with the
# machine's details (Google Benchmark's context) and the commit, and prints the table; the
# simulated node's interpreter (lane-instructions per second) goes to build-bench/ptx_bench.json. Then the
# start-up time of pkb's everyday commands (scripts/bench_startup.py: median of 10 runs), written to
# build-bench/startup.json.
set -euo pipefail
cd "$(dirname "$0")/.."
PKB_BUILD_DIR=build-bench PKB_CMAKE_ARGS="-DPKB_BENCH=ON" PKB_WITH_TESTS=1 \
  PKB_BUILD_TARGETS="pkb references_bench generate_bench ptx_bench" scripts/setup.sh
./build-bench/tests/bench/references_bench --benchmark_repetitions="${PKB_BENCH_REPS:-3}" \
  --benchmark_report_aggregates_only=true --benchmark_context=commit="$(git rev-parse --short HEAD 2>/dev/null || echo none)" \
  --benchmark_out=build-bench/bench.json --benchmark_out_format=json
# The simulated node's interpreter: lane-instructions per second on one core.
./build-bench/tests/bench/ptx_bench --benchmark_repetitions="${PKB_BENCH_REPS:-3}" \
  --benchmark_report_aggregates_only=true --benchmark_out=build-bench/ptx_bench.json --benchmark_out_format=json
if [ -x build-bench/tests/bench/generate_bench ]; then
  ./build-bench/tests/bench/generate_bench --benchmark_out=build-bench/generate_bench.json --benchmark_out_format=json
fi
python3 scripts/bench_startup.py build-bench/pkb --runs "${PKB_STARTUP_RUNS:-10}" --json build-bench/startup.json
echo "bench: results in build-bench/bench.json, build-bench/ptx_bench.json, build-bench/generate_bench.json and build-bench/startup.json" >&2
