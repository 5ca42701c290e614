#!/usr/bin/env bash
# `pkb add-problem` end to end, in a temporary copy of the repository: scaffold a problem from a
# Python reference, build pkb with it (only it and 001, and only the problem commands), see the
# skeleton fail `pkb validate` with a message saying what to write, fill in a tiny computation,
# and see validation and parity pass.
# Usage: add_problem_test.sh PKB SOURCE_DIR [PYTHON_WITH_TORCH]   (ctest label: slow)
set -euo pipefail
pkb=$1
src=$2
python=${3:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pkb-add-problem.XXXXXX")
[[ -n ${PKB_KEEP_TMP:-} ]] || trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
build() { ninja -C "$repo/build" pkb >"$tmp/build.log" 2>&1 || { tail -40 "$tmp/build.log"; fail "build failed"; }; }

# Sources only: no build folders, no git metadata.
tar -C "$src" --exclude=./.git --exclude='./build*' --exclude=./.deps -cf - . | tar -C "$tmp" -xf -
repo=$tmp

echo "== scaffold"
"$pkb" --problems-dir "$repo/problems" add-problem tiny_scaled_sum --category collective \
  --from "$src/tests/e2e/data/tiny_scaled_sum.py" --world-sizes 2,4 | tee "$tmp/created.txt"
key=$(sed -n 's/^created \([0-9][0-9][0-9]_tiny_scaled_sum\):$/\1/p' "$tmp/created.txt")
[[ -n $key ]] || fail "add-problem did not print the new key"
for f in "problems/$key/problem.json" "problems/$key/reference.py" "reference/$key.cpp"; do
  [[ -f $repo/$f ]] || fail "missing $f"
done
cmp -s "$repo/problems/$key/reference.py" "$src/tests/e2e/data/tiny_scaled_sum.py" || fail "--from file not copied"
grep -q '"name": "scale"' "$repo/problems/$key/problem.json" || fail "scalar 'scale' not taken from the signature"
if "$pkb" --problems-dir "$repo/problems" add-problem tiny_scaled_sum --category collective 2>"$tmp/err"; then
  fail "a second add-problem with the same name succeeded"
fi
grep -q "already has this name" "$tmp/err" || fail "unexpected refusal: $(cat "$tmp/err")"

echo "== build with the skeleton"
cmake -S "$repo" -B "$repo/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DPKB_ONLY_REFERENCES=001_*;$key" -DPKB_PROBLEM_TOOLS_ONLY=ON \
  ${python:+-DPKB_PYTHON="$python"} >/dev/null
build
if "$repo/build/pkb" validate "$key" --world 2 --dtype bf16 >"$tmp/out" 2>"$tmp/err"; then
  fail "the skeleton passed validate"
fi
grep -q "reference/$key.cpp: make_inputs is a skeleton" "$tmp/err" || fail "skeleton message: $(cat "$tmp/err")"

echo "== fill in a tiny computation"
sed "s/KEY/$key/" "$src/tests/e2e/data/tiny_scaled_sum.cpp" >"$repo/reference/$key.cpp"
sed -i 's/"TODO: what this rank holds, and how make_inputs draws it"/"integers in [-8, 8]"/;
        s/"TODO: what every rank returns"/"sum over ranks of scale * x"/;
        s/"TODO: meaning"/"the factor every rank applies before the sum"/' "$repo/problems/$key/problem.json"
build
"$repo/build/pkb" list | grep -q "$key" || fail "pkb list does not show $key"
"$repo/build/pkb" validate "$key" --dtype bf16,fp16,fp32

if [[ -z $python ]]; then
  echo "SKIP parity: no python3 with torch"
  exit 77
fi
echo "== parity"
for world in 2 4; do
  "$python" "$repo/scripts/parity.py" --pkb "$repo/build/pkb" --world $world --problems "$key" --dtypes bf16,fp16,fp32
done
echo "add-problem end to end: ok ($key)"
