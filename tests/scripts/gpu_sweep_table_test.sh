#!/usr/bin/env bash
# scripts/gpu_sweep_table.py on two made-up runs of four problems (one that W = 2 is not allowed for) at W = 2, one judged by a GPU
# and one by the simulated node: every cell, the counts, and the one disagreement named.
set -euo pipefail
source_dir=$1
python=${2:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for key in 001_a 002_b 003_c 004_d; do
  mkdir -p "$work/problems/$key"
  echo '{}' > "$work/problems/$key/problem.json"
done
echo '{"world_sizes": [4, 8]}' > "$work/problems/004_d/problem.json"  # never at W = 2
mkdir -p "$work/gpu" "$work/sim"
cat > "$work/gpu/samples.jsonl" <<'JSON'
{"problem": "001_a", "sample": 0, "turn": 0, "status": "correct", "eval": {"judged_by": "gpu"}}
{"problem": "002_b", "sample": 0, "turn": 0, "status": "incorrect", "message": "rank 1 y: 4/8 mismatches", "eval": {"judged_by": "gpu"}}
{"problem": "002_b", "sample": 1, "turn": 0, "status": "correct", "eval": {"judged_by": "gpu"}}
JSON
cat > "$work/sim/samples.jsonl" <<'JSON'
{"problem": "001_a", "sample": 0, "turn": 0, "status": "correct", "eval": {"judged_by": "sim"}}
{"problem": "002_b", "sample": 0, "turn": 0, "status": "correct", "eval": {"judged_by": "sim"}}
{"problem": "003_c", "sample": 0, "turn": 0, "status": "correct", "eval": {"judged_by": "sim"}}
JSON
table=$("$python" "$source_dir/scripts/gpu_sweep_table.py" --problems "$work/problems" \
          --answers "2=$work/gpu" --answers "2 sim=$work/sim" --markdown)
echo "$table"
expect() {
  grep -qF -- "$1" <<<"$table" || { echo "gpu_sweep_table_test: missing: $1" >&2; exit 1; }
}
expect "| problem | answer W=2 | answer W=2 sim |"
expect "| 001_a | correct | correct (sim) |"
expect "| 002_b | incorrect: rank 1 y: 4/8 mismatches | correct (sim) |"
expect "| 003_c | never run | correct (sim) |"
expect "| 004_d | not allowed | not allowed |"
expect "- W=2: correct 1, incorrect 1, never run 1, not allowed 1"
expect "- W=2: the GPU and the simulated node disagree on 1 of 2: 002_b (GPU incorrect, simulated correct)"
# Where the two agree, it says so.
sed -i 's/"status": "incorrect", "message": "rank 1 y: 4\/8 mismatches"/"status": "correct"/' "$work/gpu/samples.jsonl"
table=$("$python" "$source_dir/scripts/gpu_sweep_table.py" --problems "$work/problems" \
          --answers "2=$work/gpu" --answers "2 sim=$work/sim")
expect "# W=2: the GPU and the simulated node agree on all 2 judged by both"
echo "gpu_sweep_table_test: ok"
