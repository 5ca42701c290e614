#!/usr/bin/env bash
# Run ON the GPU machine (the device tool), after scripts/gpu-deps.sh ran here and with .deps
# carried: builds pkb against the machine's torch (CUDA) and NCCL, prints pkb doctor, runs the gpu
# test label (the executor: examples correct at W = 2, 4, 8, broken candidates, timing
# repeatability), and prints a table of the example answers' speedups (pkb eval --json; on one GPU
# the ranks are emulated, so the speedups are marked and mean little) with the wall time of each
# full pkb eval (2 trials + timing). About 8 minutes on one H200
# with a warm build folder. PKB_GPU_CHECK_REFERENCES=1 adds the old table of reference run times
# (every problem at W = 2 and 8, a few minutes more).
#   device run: scripts/gpu-check.sh   (carry: .deps)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/pkb-gpu}
mkdir -p "$out"
python=${PKB_PYTHON:-python3}
torch_prefix=$($python -c 'import torch; print(torch.utils.cmake_prefix_path)')
nccl_root=$($python -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))' 2>/dev/null || true)
deps=$PWD/.deps/root
[ -d "$deps/usr/include/nlohmann" ] || { echo "gpu-check: .deps missing: run scripts/gpu-deps.sh here and carry .deps" >&2; exit 2; }

nccl_args=()
if [ -n "$nccl_root" ]; then
  nccl_lib=$(ls "$nccl_root"/lib/libnccl.so* | head -1)
  nccl_args=(-DPKB_NCCL_INCLUDE="$nccl_root/include" -DPKB_NCCL_LIBRARY="$nccl_lib")
fi
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$torch_prefix;$deps/usr" -DPKB_HEADER_ONLY_SPDLOG="$deps/usr/include" \
  -DPKB_PYTHON="$python" "${nccl_args[@]}" 2>&1 | tail -5 | tee "$out/configure.log"
cmake --build build-gpu -j "$(nproc)" 2>&1 | tail -20 | tee "$out/build.log"

echo "== pkb doctor"
./build-gpu/pkb doctor | tee "$out/doctor.txt"
echo "== gpu tests"
ctest --test-dir build-gpu -L gpu --output-on-failure --timeout 300 2>&1 | tee "$out/gpu-tests.txt"
status=${PIPESTATUS[0]}

echo "== example answers: pkb eval --json, bench dims, bf16"
printf '%-34s %2s %-13s %12s %12s %8s %7s %s\n' example W status "cand_us" "base_us" speedup wall_s note | tee "$out/examples.txt"
for example in problems/examples/*.md; do
  problem=$(basename "$(ls -d problems/"$(basename "$example" | cut -c1-3)"_*)")
  for world in 2 4 8; do
    start=$(date +%s%N)
    json=$(./build-gpu/pkb -q eval "$problem" "$example" --world "$world" --dims bench --trials 2 --json 2>>"$out/examples.err")
    wall=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "$json" > "$out/eval_$(basename "$example" .md)_W$world.json"
    echo "$json" | $python -c '
import json, sys
name, world, wall_ms = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    doc = json.load(sys.stdin)
except ValueError:
    doc = {"status": "no-json"}
status = doc.get("status", "?")
timing = (doc.get("run") or {}).get("timing") or {}
cand = timing.get("candidate", {}).get("median_us", 0)
base = timing.get("baseline", {}).get("median_us", 0)
note = ("emulated " if timing.get("emulated") else "") + ("SOL-flag " if timing.get("sol_flag") else "")
if status != "correct":
    note += doc.get("message", "")[:80]
print("%-34s %2s %-13s %12.1f %12.1f %8.2f %7.1f %s" % (name, world, status, cand, base, timing.get("speedup", 0),
                                                      wall_ms / 1000, note))
' "$(basename "$example" .md)" "$world" "$wall" | tee -a "$out/examples.txt"
  done
done

if [ "${PKB_GPU_CHECK_REFERENCES:-0}" = 1 ]; then
  echo "== references on one GPU (simulated ranks), bench dims"
  printf '%-20s %3s %6s %10s\n' problem W dtype seconds | tee "$out/timing.txt"
  for key in $(./build-gpu/pkb list --json | $python -c 'import json,sys; print(" ".join(p["key"] for p in json.load(sys.stdin)["problems"]))'); do
    for world in 2 8; do
      seconds=$( { /usr/bin/time -f %e ./build-gpu/pkb -q reference "$key" --world "$world" --dims bench --device cuda >/dev/null; } 2>&1 | tail -1)
      printf '%-20s %3s %6s %10s\n' "$key" "$world" bf16 "$seconds" | tee -a "$out/timing.txt"
    done
  done
fi
exit "$status"
