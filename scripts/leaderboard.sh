#!/usr/bin/env bash
# Rebuilds the leaderboard from the results directories under ROOT. Every directory (a folder with
# run.json) is first validated by `pkb score DIR --json`; the first invalid one fails the script
# with a message naming it. Then each run's score is kept as JSON and the leaderboard is written.
#   scripts/leaderboard.sh [ROOT] [OUT]
#     ROOT  folder searched for results directories (default: results)
#     OUT   output folder (default: ROOT/leaderboard): leaderboard.md, index.html, and
#           scores/<dir with / as __>.json, one `pkb score --json` document per results directory
# pkb: $PKB if set, else PKB_BUILD_DIR (default build/) is built (target pkb only), configured
# first through scripts/setup.sh when it does not exist yet. Used by CI
# (.github/workflows/leaderboard.yml) and by tests/leaderboard/leaderboard_script_test.sh.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-results}
out=${2:-$root/leaderboard}

if [ -n "${PKB:-}" ]; then
  pkb=$PKB
else
  build_dir=${PKB_BUILD_DIR:-build}
  case $build_dir in /*) ;; *) build_dir=$repo/$build_dir ;; esac
  if [ ! -f "$build_dir/build.ninja" ]; then
    PKB_BUILD_DIR=$build_dir "$repo/scripts/setup.sh"
  else
    cmake --build "$build_dir" --target pkb >/dev/null
  fi
  pkb=$build_dir/pkb
fi

if [ ! -d "$root" ]; then
  echo "leaderboard: error: $root: not a directory" >&2
  exit 1
fi

# Results directories: folders holding run.json (pkb never writes run.json elsewhere). The output
# folder is skipped, in case it lies under ROOT.
mapfile -t dirs < <(find "$root" -name run.json -not -path "$out/*" -printf '%h\n' | sort)
if [ ${#dirs[@]} -eq 0 ]; then
  echo "leaderboard: error: $root: no results directories (folders with run.json)" >&2
  exit 1
fi

mkdir -p "$out/scores"
for dir in "${dirs[@]}"; do
  if [ ! -f "$dir/samples.jsonl" ]; then
    echo "leaderboard: error: invalid results directory $dir: run.json without samples.jsonl" >&2
    exit 1
  fi
  relative=${dir#"$root"}
  relative=${relative#/}
  name=${relative//\//__}
  if ! "$pkb" -q score "$dir" --json --bootstrap 200 >"$out/scores/${name:-root}.json" 2>"$out/scores/.error"; then
    echo "leaderboard: error: invalid results directory $dir: $(tail -1 "$out/scores/.error")" >&2
    rm -f "$out/scores/.error" "$out/scores/${name:-root}.json"
    exit 1
  fi
done
rm -f "$out/scores/.error"

"$pkb" leaderboard "$root" --out "$out"
echo "leaderboard: ${#dirs[@]} results directories scored; $out/leaderboard.md, $out/index.html"
