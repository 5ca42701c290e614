#!/usr/bin/env bash
# Every problem's reference answer (problems/*/answer.md) judged on the simulated node at every
# world size and dtype its problem allows (test dims and 2 shapes drawn under the size rules, as
# pkb judges by default; PKB_SIM_SWEEP_DRAWN sets the number), one `pkb run --device sim` per (W, dtype),
# then one table of the verdicts (scripts/gpu_sweep_table.py) for docs/GPU_RUNS.md.
#   scripts/sim-sweep.sh                 W = 2 4 8, dtypes bf16 fp16 fp32, 2 trials
#   PKB_SIM_SWEEP_WORLDS="2 8" PKB_SIM_SWEEP_DTYPES=bf16 PKB_SIM_SWEEP_TRIALS=1 scripts/sim-sweep.sh
# Needs build/pkb and build/pkb-sim-worker (scripts/setup.sh builds both). Writes under
# ${PKB_SIM_SWEEP_OUT:-results/sim-sweep}: one results directory per (W, dtype), sweep.md and
# sweep.txt. A verdict of the simulated node proves the logic of an answer, never its speed.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${PKB_BUILD_DIR:-build}
out=${PKB_SIM_SWEEP_OUT:-results/sim-sweep}
worlds=${PKB_SIM_SWEEP_WORLDS:-2 4 8}
dtypes=${PKB_SIM_SWEEP_DTYPES:-bf16 fp16 fp32}
trials=${PKB_SIM_SWEEP_TRIALS:-2}
drawn=${PKB_SIM_SWEEP_DRAWN:-2}
python=${PKB_PYTHON:-python3}
for program in pkb pkb-sim-worker; do
  [ -x "$build/$program" ] || { echo "sim-sweep: $build/$program missing: run scripts/setup.sh" >&2; exit 2; }
done
if [ -e "$out" ]; then
  echo "sim-sweep: $out exists: move it away or set PKB_SIM_SWEEP_OUT" >&2
  exit 2
fi
mkdir -p "$out"

# A replay folder of nothing but the reference answers (examples/replay would serve its own
# samples for some problems instead).
mkdir -p "$out/reference-answers"
printf '{"problem_answers": "%s"}\n' "$PWD/problems" > "$out/reference-answers/replay.json"

answer_args=()
sweep_start=$(date +%s)
for world in $worlds; do
  for dtype in $dtypes; do
    # The problems that allow this W and dtype (051 starts at W = 4; ten problems have no fp16).
    problems=$($python -c 'import json, os, sys
w, d = int(sys.argv[1]), sys.argv[2]
keys = sorted(k for k in os.listdir("problems") if os.path.isfile("problems/%s/problem.json" % k))
specs = {k: json.load(open("problems/%s/problem.json" % k)) for k in keys}
print(",".join(k[:3] for k in keys if w in specs[k]["world_sizes"] and d in specs[k].get("dtypes", ["bf16"])))' \
      "$world" "$dtype")
    run_dir=$out/W${world}_$dtype
    begin=$(date +%s)
    # A run whose answers are not all correct still exits 0; a failing pkb stops the sweep.
    "$build/pkb" run --model "replay:$out/reference-answers" --device sim --problems "$problems" \
      --world "$world" --dtype "$dtype" --dims test --drawn "$drawn" --trials "$trials" --out "$run_dir" \
      > "$run_dir.out" 2> "$run_dir.err" || { tail -20 "$run_dir.err" >&2; exit 1; }
    echo "sim-sweep: W=$world $dtype judged in $(( $(date +%s) - begin )) s:" \
      "$(grep -o 'samples in .*' "$run_dir.err" | tail -1)"
    answer_args+=(--answers "$world $dtype=$run_dir")
  done
done
echo "sim-sweep: all judged in $(( $(date +%s) - sweep_start )) s"
$python scripts/gpu_sweep_table.py --problems problems --judge sim "${answer_args[@]}" > "$out/sweep.txt"
$python scripts/gpu_sweep_table.py --problems problems --judge sim "${answer_args[@]}" --markdown > "$out/sweep.md"
tail -n "$(( $(echo $worlds | wc -w) * $(echo $dtypes | wc -w) ))" "$out/sweep.txt"
echo "sim-sweep: table in $out/sweep.md"
