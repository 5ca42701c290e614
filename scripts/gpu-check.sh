#!/usr/bin/env bash
# The one script for a GPU machine (the device tool's machine has no package registry). Run it
# there after scripts/gpu-deps.sh ran on a Debian machine and with .deps carried:
#   device run: bash scripts/gpu-check.sh        (carry: .deps)
# Steps, each skipped when the time budget (PKB_GPU_CHECK_BUDGET_S, default 480 s) cannot fit it:
#   1. the GPU as found (nvidia-smi), then pkb built against the machine's torch (with CUDA), NCCL
#      and CUDA toolkit, only the targets the GPU checks need;
#   2. pkb doctor;
#   3. the sweep: every problem's reference answer (problems/*/answer.md, served by the bundled
#      replay model) judged by `pkb run` at W = 2 and W = 8 (test dims and 2 shapes drawn under
#      the size rules, `--drawn 2`, as the simulated node judges by default; no timing; the two runs
#      side by side), and every problem's reference on the GPU at bench dims (`pkb reference
#      --batch`, bf16, the largest W; on one GPU that is also the emulated baseline). Its table is
#      $OUT/sweep.md, ready for docs/GPU_RUNS.md. The same answers are then judged on the simulated
#      node (`--device sim`, the machine's 16 cores) at the same W, so the table puts the two
#      verdicts side by side: where they differ, the interpreter (harness/ptx) or the GPU path has
#      a bug;
#   4. the `gpu` test label (the executor: examples correct at W = 2, 4, 8, broken candidates,
#      timing repeatability), when the budget still allows;
#   5. a table of the example answers at bench dims (plus 2 drawn shapes): status, candidate and baseline medians,
#      speedup and the wall time of each pkb eval. With one GPU the ranks are emulated, so the
#      speedups are marked and mean little.
# Everything is logged under a work folder that is packed into $OUT/gpu-check.tgz at the end (the
# device tool returns at most 8 files); summary.txt beside it holds the tables.
# PKB_GPU_CHECK_TESTS=0 skips step 4; PKB_GPU_CHECK_WORLDS="2 8" narrows step 5;
# PKB_GPU_CHECK_SWEEP_WORLDS="2 8" sets the sweep's world sizes.
set -uo pipefail
cd "$(dirname "$0")/.."
start_s=$(date +%s)
budget_s=${PKB_GPU_CHECK_BUDGET_S:-480}
out=${OUT:-/tmp/pkb-gpu-out}
work=${PKB_GPU_CHECK_WORK:-/tmp/pkb-gpu-check}
build=${PKB_GPU_BUILD_DIR:-build-gpu}
mkdir -p "$out" "$work"
summary=$out/summary.txt
: > "$summary"

say() { echo "$*" | tee -a "$summary"; }
# problems_for W: the ids of the problems that allow world size W, comma-separated (051 starts at 4).
problems_for() {
  $python -c 'import json, os, sys
w = int(sys.argv[1]); keys = sorted(os.listdir("problems"))
print(",".join(k[:3] for k in keys if os.path.isfile("problems/%s/problem.json" % k)
               and w in json.load(open("problems/%s/problem.json" % k))["world_sizes"]))' "$1"
}
left_s() { echo $(( budget_s - ($(date +%s) - start_s) )); }
# fits SECONDS: true when that much of the budget is left (leaves 20 s to pack the logs).
fits() { [ "$(left_s)" -gt $(( $1 + 20 )) ]; }
pack() {
  tar czf "$out/gpu-check.tgz" -C "$work" . 2>/dev/null
  say "== done after $(( $(date +%s) - start_s )) s"
}
trap pack EXIT

python=${PKB_PYTHON:-python3}
deps=$PWD/.deps/root
[ -d "$deps/usr/include/nlohmann" ] || { say "gpu-check: .deps missing: run scripts/gpu-deps.sh on a Debian machine and carry .deps"; exit 2; }

say "== the GPU as found"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv 2>&1 | tee -a "$summary"
nvidia-smi topo -m > "$work/topo.txt" 2>&1

torch_prefix=$($python -c 'import torch; print(torch.utils.cmake_prefix_path)')
torch_version=$($python -c 'import torch; print(torch.__version__)')
# NCCL: the pip package torch depends on (a namespace package: use its __path__), else the system's.
nccl_root=$($python -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null || true)
nccl_args=()
if [ -n "$nccl_root" ] && [ -f "$nccl_root/include/nccl.h" ]; then
  nccl_lib=$(ls "$nccl_root"/lib/libnccl.so* | head -1)
  nccl_args=(-DPKB_NCCL_INCLUDE="$nccl_root/include" -DPKB_NCCL_LIBRARY="$nccl_lib")
  export LD_LIBRARY_PATH="$nccl_root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
cuda_args=()
[ -x /usr/local/cuda/bin/nvcc ] && cuda_args=(-DCUDAToolkit_ROOT=/usr/local/cuda)
say "torch $torch_version; nccl ${nccl_lib:-system}; nvcc $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*')"

say "== build ($build)"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPKB_WERROR=OFF \
  -DCMAKE_PREFIX_PATH="$torch_prefix;$deps/usr" -DPKB_HEADER_ONLY_SPDLOG="$deps/usr/include" \
  -DPKB_PYTHON="$python" "${cuda_args[@]}" "${nccl_args[@]}" > "$work/configure.log" 2>&1 ||
  { tail -40 "$work/configure.log" | tee -a "$summary"; exit 1; }
targets=(pkb pkb-worker pkb-sim-worker pkb-nvrtc executor_gpu_tests)
grep -q '^build pkb-torch:' "$build/build.ninja" 2>/dev/null && targets+=(pkb-torch)
grep -q '^build nccl_tests:' "$build/build.ninja" 2>/dev/null && targets+=(nccl_tests)
build_start=$(date +%s)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" > "$work/build.log" 2>&1 ||
  { grep -E 'error|Error' "$work/build.log" | head -40 | tee -a "$summary"; exit 1; }
say "built ${targets[*]} in $(( $(date +%s) - build_start )) s"
pkb=$PWD/$build/pkb

say "== pkb doctor"
timeout 60 "$pkb" doctor 2>&1 | tee "$work/doctor.txt" | tee -a "$summary"

status=0
if fits 200; then
  say "== sweep: every reference answer at W = ${PKB_GPU_CHECK_SWEEP_WORLDS:-2 8} (test dims), every reference at bench dims"
  sweep_start=$(date +%s)
  # A replay folder of nothing but the reference answers (examples/replay would serve its own
  # samples for six problems instead).
  mkdir -p "$work/reference-answers"
  echo "{\"problem_answers\": \"$PWD/problems\"}" > "$work/reference-answers/replay.json"
  answer_args=()
  for world in ${PKB_GPU_CHECK_SWEEP_WORLDS:-2 8}; do
    problems=$(problems_for "$world")
    # The two runs share the GPU side by side: nothing is timed, so they cannot disturb each other.
    timeout $(( $(left_s) - 120 )) "$pkb" -q run --model "replay:$work/reference-answers" --problems "$problems" \
      --device gpu --world "$world" --dims test --drawn 2 --no-timing --trials 2 --out "$work/answers_W$world" \
      > "$work/answers_W$world.out" 2> "$work/answers_W$world.err" &
    answer_args+=(--answers "$world=$work/answers_W$world")
  done
  wait
  say "answers judged in $(( $(date +%s) - sweep_start )) s"
  # The simulated node's verdicts of the same answers, one W after the other (each run uses every
  # core): a verdict that differs from the GPU's is a bug of one of the two.
  for world in ${PKB_GPU_CHECK_SWEEP_WORLDS:-2 8}; do
    fits 100 || break
    sim_start=$(date +%s)
    problems=$(problems_for "$world")
    timeout $(( $(left_s) - 90 )) "$pkb" -q run --model "replay:$work/reference-answers" --problems "$problems" \
      --device sim --world "$world" --dims test --drawn 2 --trials 2 --out "$work/sim_W$world" \
      > "$work/sim_W$world.out" 2> "$work/sim_W$world.err"
    say "simulated node at W = $world in $(( $(date +%s) - sim_start )) s (exit $?)"
    answer_args+=(--answers "$world sim=$work/sim_W$world")
  done
  if fits 60; then
    $python -c 'import json, os
keys = sorted(k for k in os.listdir("problems") if os.path.isfile("problems/%s/problem.json" % k))
for index, key in enumerate(keys):
    spec = json.load(open("problems/%s/problem.json" % key))
    print(json.dumps({"index": index, "problem": key, "world": max(spec["world_sizes"]), "dtype": "bf16",
                      "dims": "bench", "device": "cuda"}))' > "$work/references.jobs"
    reference_start=$(date +%s)
    timeout $(( $(left_s) - 40 )) "$pkb" -q reference --batch "$work/references.jobs" \
      > "$work/references.out" 2> "$work/references.err"
    say "references at bench dims in $(( $(date +%s) - reference_start )) s (exit $?)"
  fi
  $python scripts/gpu_sweep_table.py --problems problems "${answer_args[@]}" \
    --references "$work/references.out" | tee -a "$summary"
  $python scripts/gpu_sweep_table.py --problems problems "${answer_args[@]}" \
    --references "$work/references.out" --markdown > "$out/sweep.md"
fi

example=problems/examples/001_allreduce_peer_loads.md
if fits 90; then
  say "== smoke: pkb -vv eval 001_allreduce (example) --world 2"
  timeout 120 "$pkb" -vv eval 001_allreduce "$example" --world 2 --trials 2 --json \
    --work-dir "$work/smoke" > "$work/smoke.json" 2> "$work/smoke.err"
  smoke_rc=$?
  say "exit $smoke_rc; $($python -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("status"), "|", d.get("message","")[:300])' "$work/smoke.json" 2>&1 | tail -1)"
  tail -15 "$work/smoke.err" >> "$summary"
  # A crash of pkb itself (not of the candidate, which runs in pkb-worker): where, and which
  # settings it needs. cuda-gdb debugs host-only code too, and is the only debugger there.
  if [ "$smoke_rc" -ge 128 ] && [ "$smoke_rc" -ne 137 ] && fits 150; then
    say "== pkb crashed (exit $smoke_rc): variants, then a backtrace"
    for variant in "--dims test --no-timing" "--dims test" "--dims bench --no-timing"; do
      # shellcheck disable=SC2086
      timeout 60 "$pkb" eval 001_allreduce "$example" --world 2 --trials 1 --json $variant > "$work/variant.json" 2>&1
      say "  $variant: exit $?, $(head -c 300 "$work/variant.json" | tr '\n' ' ')"
    done
    if command -v cuda-gdb > /dev/null; then
      timeout 120 cuda-gdb -batch -ex run -ex bt -ex 'info threads' --args \
        "$pkb" eval 001_allreduce "$example" --world 2 --trials 1 --json > "$work/backtrace.txt" 2>&1
      grep -E '^#[0-9]+|signal|SIG' "$work/backtrace.txt" | head -40 | tee -a "$summary"
    fi
  fi
fi

if [ "${PKB_GPU_CHECK_TESTS:-1}" = 1 ] && fits 120; then
  say "== gpu tests (ctest -L gpu)"
  timeout $(( $(left_s) - 150 > 120 ? $(left_s) - 150 : 120 )) \
    ctest --test-dir "$build" -L gpu --output-on-failure --timeout 90 > "$work/gpu-tests.txt" 2>&1
  status=$?
  grep -E 'tests passed|tests failed|Failed|Not Run|Timeout|\*\*\*|Skipped' "$work/gpu-tests.txt" | head -60 | tee -a "$summary"
fi

say "== example answers: pkb eval --json, bench dims, bf16"
printf '%-34s %2s %-13s %12s %12s %8s %7s %s\n' example W status cand_us base_us speedup wall_s note | tee -a "$summary"
for example in problems/examples/*.md; do
  problem=$(basename "$(ls -d problems/"$(basename "$example" | cut -c1-3)"_*)")
  for world in ${PKB_GPU_CHECK_WORLDS:-2 4 8}; do
    fits 60 || { say "(out of time: skipped the rest)"; break 2; }
    name=$(basename "$example" .md)
    begin=$(date +%s%N)
    timeout 90 "$pkb" -q eval "$problem" "$example" --world "$world" --dims bench --drawn 2 --trials 2 --json \
      > "$work/eval_${name}_W$world.json" 2>> "$work/examples.err"
    rc=$?
    wall=$(( ($(date +%s%N) - begin) / 1000000 ))
    $python - "$work/eval_${name}_W$world.json" "$name" "$world" "$wall" "$rc" <<'EOF' | tee -a "$summary"
import json, sys
path, name, world, wall_ms, rc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
try:
    doc = json.load(open(path))
except ValueError:
    doc = {"status": "no-json", "message": "pkb exit %d" % rc}
timing = (doc.get("run") or {}).get("timing") or {}
cand = timing.get("candidate", {}).get("median_us", 0)
base = timing.get("baseline", {}).get("median_us", 0)
sol = doc.get("sol") or {}
note = ("emulated " if timing.get("emulated") else "") + ("suspicious_fast " if sol.get("suspicious_fast") else "")
if doc.get("status") != "correct":
    note += doc.get("message", "")[:100]
print("%-34s %2s %-13s %12.1f %12.1f %8.2f %7.1f %s" % (name, world, doc.get("status", "?"), cand, base,
                                                      timing.get("speedup", 0), wall_ms / 1000, note))
EOF
  done
done
exit "$status"
