#!/usr/bin/env bash
# Compile time of one small all-reduce kernel (tests/compile/data/bench/allreduce.cu) through the
# paths a kernel benchmark can take: pkb's compile_cuda (NVRTC in a child process; no cache, a cache
# miss that stores, a cache hit), `nvcc -cubin`, and a torch C++ extension build (nvcc -c of the
# kernel + g++ -c of a binding including <torch/extension.h> + link of a .so).
#   scripts/bench-compile.sh [BUILD_DIR]    (default build-bench; configured with -DPKB_BENCH=ON)
# Prints a table (median, min and max of PKB_BENCH_REPS runs, default 3, in ms) on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-bench}
reps=${PKB_BENCH_REPS:-3}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
python=/usr/bin/python3  # Debian's python3-torch belongs to it
data=tests/compile/data/bench

if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPKB_BENCH=ON >&2
fi
ninja -C "$build_dir" compile_bench >&2
bench=$(find "$build_dir/tests" -name compile_bench -type f -perm -u+x | head -n 1)
[ -n "$bench" ] || { echo "bench-compile: $build_dir: no compile_bench (configure with -DPKB_BENCH=ON)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bench" --benchmark_repetitions="$reps" --benchmark_format=json >"$work/compile_cuda.json"

# Wall time of one command in ms; its output goes to the log, a failure stops the script.
time_ms() {
  local start end
  start=$(date +%s%N)
  "$@" >>"$work/log" 2>&1 || { echo "bench-compile: failed: $*" >&2; tail -n 20 "$work/log" >&2; exit 1; }
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

torch_includes=$($python -c 'import torch.utils.cpp_extension as c; print(" ".join("-isystem " + p for p in c.include_paths()))' 2>/dev/null)
torch_lib=$($python -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))' 2>/dev/null)
python_include=$($python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
cuda_lib=$(dirname "$(dirname "$nvcc")")/lib64
torch_build() {
  "$nvcc" -c -O2 -std=c++17 -arch=sm_90a -Xcompiler -fPIC -o "$work/launch.o" "$data/torch_launch.cu" &&
    g++ -c -O2 -std=c++17 -fPIC $torch_includes -isystem "$python_include" -DTORCH_API_INCLUDE_EXTENSION_H \
      -DTORCH_EXTENSION_NAME=pkb_bench_ext -o "$work/binding.o" "$data/torch_binding.cpp" &&
    g++ -shared -o "$work/pkb_bench_ext.so" "$work/launch.o" "$work/binding.o" -L"$torch_lib" \
      -ltorch -ltorch_cpu -lc10 -ltorch_python -L"$cuda_lib" -lcudart
}

nvcc_ms=() torch_ms=()
for _ in $(seq "$reps"); do
  nvcc_ms+=("$(time_ms "$nvcc" -cubin -arch=sm_90a -std=c++17 -o "$work/allreduce.cubin" "$data/allreduce.cu")")
  torch_ms+=("$(time_ms torch_build)")
done

$python - "$work/compile_cuda.json" "${nvcc_ms[*]}" "${torch_ms[*]}" "$reps" \
  "$("$nvcc" --version | sed -n "s/.*release \([0-9.]*\).*/nvcc \1/p")" "$($python -c 'import torch; print(torch.__version__)' 2>/dev/null)" \
  "$(git rev-parse --short HEAD 2>/dev/null || echo none)" <<'PY'
import json, os, platform, statistics, sys
bench_json, nvcc_ms, torch_ms, reps, nvcc_version, torch_version, commit = sys.argv[1:]
runs = {}
bench = json.load(open(bench_json))
for b in bench["benchmarks"]:
    if b.get("run_type") == "iteration":
        runs.setdefault(b["run_name"], []).append(b["real_time"])
rows = [
    ("compile_cuda, no cache", runs["BM_CompileCuda/no_cache"]),
    ("compile_cuda, cache miss + store", runs["BM_CompileCuda/cache_miss"]),
    ("compile_cuda, cache hit", runs["BM_CompileCuda/cache_hit"]),
    ("nvcc -cubin -arch=sm_90a", [float(x) for x in nvcc_ms.split()]),
    ("torch extension build", [float(x) for x in torch_ms.split()]),
]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"# compile time of tests/compile/data/bench/allreduce.cu, sm_90a; commit {commit}")
print(f"# machine: {cpu}, {os.cpu_count()} cpus; {nvcc_version}; torch {torch_version}")
print(f"# each row: {reps} runs (compile_cuda rows: {reps} repetitions of Google Benchmark's mean)")
print(f"{'path':34} {'median_ms':>10} {'min_ms':>9} {'max_ms':>9} {'n':>3}")
for name, values in rows:
    print(f"{name:34} {statistics.median(values):10.1f} {min(values):9.1f} {max(values):9.1f} {len(values):3}")
med = {name: statistics.median(values) for name, values in rows}
cold = med["compile_cuda, no cache"]
print(f"verdict: compile_cuda is {med['nvcc -cubin -arch=sm_90a'] / cold:.1f}x faster than nvcc -cubin and "
      f"{med['torch extension build'] / cold:.0f}x faster than a torch extension build; "
      f"a cache hit takes {med['compile_cuda, cache hit']:.2f} ms")
PY
