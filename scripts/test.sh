#!/usr/bin/env bash
# The test command: sets up and builds (scripts/setup.sh), runs every ctest label (unit, parity,
# gpu, slow; gpu cases skip with their reason where no GPU is present), then prints the validate and
# parity tables and the pass/fail/skip counts.
#   scripts/test.sh           everything
#   scripts/test.sh --quick   leaves out the slow label
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${PKB_BUILD_DIR:-build}

exclude=()
[ "${1:-}" = "--quick" ] && exclude=(-LE slow)

PKB_WITH_TESTS=1 PKB_BUILD_TARGETS=all scripts/setup.sh
# Slurm only for the slow test that runs a 3-shard job on a one-node cluster on loopback.
if [ ${#exclude[@]} -eq 0 ]; then
  scripts/setup-slurm.sh || echo "test: scripts/setup-slurm.sh failed: slurm_e2e will skip" >&2
fi
rm -rf "$build_dir/reports"
mkdir -p "$build_dir/reports"

status=0
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" "${exclude[@]}" \
  | tee "$build_dir/reports/ctest.txt" || status=$?

for report in "$build_dir"/reports/validate.txt "$build_dir"/reports/parity_W*.txt; do
  [ -f "$report" ] || continue
  echo
  echo "== $(basename "$report" .txt)"
  cat "$report"
done

echo
grep -E "tests passed|tests failed" "$build_dir/reports/ctest.txt" | tail -1
skipped=$(grep -c '\*\*\*Skipped' "$build_dir/reports/ctest.txt" || true)
echo "skipped: $skipped"
# gtest writes the reason on the line after "file:line: Skipped"; print each reason once.
log="$build_dir/Testing/Temporary/LastTest.log"
if [ "$skipped" -gt 0 ] && [ -f "$log" ]; then
  grep -A1 ': Skipped$' "$log" | grep -v -e ': Skipped$' -e '^--$' | sort | uniq -c |
    sed 's/^ *\([0-9]*\) /  skip reason (\1 tests): /'
fi
exit "$status"
