#!/usr/bin/env bash
# scripts/leaderboard.sh on a copy of the fixture tree (tests/score/data/tree): it writes the
# leaderboard and one score per run; then, with one run corrupted, it fails naming that run.
#   leaderboard_script_test.sh PKB SOURCE_DIR
set -euo pipefail
pkb=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$source_dir/tests/score/data/tree" "$work/results"

fail() { echo "FAIL: $*" >&2; exit 1; }

PKB=$pkb "$source_dir/scripts/leaderboard.sh" "$work/results" "$work/out" >"$work/log" 2>&1 ||
  { cat "$work/log"; fail "the script failed on a valid tree"; }
[ -s "$work/out/leaderboard.md" ] || fail "no leaderboard.md"
[ -s "$work/out/index.html" ] || fail "no index.html"
grep -q '^## 8x NVIDIA H100, W 8$' "$work/out/leaderboard.md" || fail "no H100 table"
grep -q '^## 8x NVIDIA H200, W 8$' "$work/out/leaderboard.md" || fail "no H200 W8 table"
[ "$(ls "$work/out/scores" | wc -l)" -eq 5 ] || fail "expected 5 score files, got $(ls "$work/out/scores")"
grep -q '"kind": "score"' "$work/out/scores/h200__model-b.json" || fail "score of h200/model-b missing"

# Default OUT lies under ROOT and is not taken for a results directory on the next run.
PKB=$pkb "$source_dir/scripts/leaderboard.sh" "$work/results" >"$work/log" 2>&1 ||
  { cat "$work/log"; fail "the default output folder broke a second run"; }
PKB=$pkb "$source_dir/scripts/leaderboard.sh" "$work/results" >"$work/log" 2>&1 ||
  { cat "$work/log"; fail "a third run failed"; }
[ -s "$work/results/leaderboard/index.html" ] || fail "no index.html in the default output folder"

# A corrupt line in one run: the script fails and names that run and line.
printf '{"schema_version": 2, "problem": "p_all", "sample": 5, "status": "correct"}\nnot json\n' \
  >>"$work/results/h200/model-b/samples.jsonl"
if PKB=$pkb "$source_dir/scripts/leaderboard.sh" "$work/results" "$work/out2" >"$work/log" 2>&1; then
  fail "the script passed with a corrupt results directory"
fi
grep -q "leaderboard: error: invalid results directory $work/results/h200/model-b: pkb: error: $work/results/h200/model-b/samples.jsonl:6: not valid JSON" "$work/log" ||
  { cat "$work/log"; fail "the message does not name the directory and line"; }

# A run.json without samples.jsonl is invalid too.
rm -rf "$work/results/h200/model-b"
mkdir -p "$work/results/h100/broken" && echo '{}' >"$work/results/h100/broken/run.json"
if PKB=$pkb "$source_dir/scripts/leaderboard.sh" "$work/results" "$work/out3" >"$work/log" 2>&1; then
  fail "the script passed with run.json lacking samples.jsonl"
fi
grep -q "invalid results directory $work/results/h100/broken: run.json without samples.jsonl" "$work/log" ||
  { cat "$work/log"; fail "the message does not name the broken directory"; }
echo "leaderboard script: ok"
