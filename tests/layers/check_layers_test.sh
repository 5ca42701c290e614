#!/usr/bin/env bash
# The layer table of docs/ARCHITECTURE.md holds for the whole tree, and the checker catches a
# deliberate upward include (tests/layers/data/upward: src/common including src/cli).
# Usage: check_layers_test.sh SOURCE_DIR
set -uo pipefail
src=$1
fail() { echo "FAIL: $*" >&2; exit 1; }

python3 "$src/scripts/check_layers.py" --root "$src" || fail "the tree breaks its layer table (above)"

out=$(python3 "$src/scripts/check_layers.py" --root "$src/tests/layers/data/upward" 2>/dev/null)
status=$?
[ "$status" -eq 1 ] || fail "an upward include passed (exit $status)"
expected="src/common/bad.h:4: includes src/cli/command.h (layer 6, src/cli/) from layer 0 (src/common/): an upward include"
[ "$out" = "$expected" ] || fail "unexpected report: $out"
echo "check_layers_test: the tree passes; the upward include is reported"
