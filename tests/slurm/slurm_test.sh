#!/usr/bin/env bash
# A real Slurm on loopback (tests/slurm/local_cluster.sh): `pkb slurm submit --nodes 3` of a small
# replay run, waited for (bounded), must merge to the scores of the same run without shards.
#   tests/slurm/slurm_test.sh PKB_BINARY SOURCE_DIR
# Exit 77 (skipped, reason on stderr) only when the Slurm daemons cannot start on this machine;
# scripts/setup-slurm.sh installs them. Installs nothing itself.
set -euo pipefail
pkb=${1:?usage: slurm_test.sh PKB_BINARY SOURCE_DIR}
src=${2:?usage: slurm_test.sh PKB_BINARY SOURCE_DIR}
pkb=$(cd "$(dirname "$pkb")" && pwd)/$(basename "$pkb")
src=$(cd "$src" && pwd)
wait_s=${PKB_SLURM_WAIT_S:-180}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pkb_slurm_XXXXXX")
cleanup() {
  "$src/tests/slurm/local_cluster.sh" stop "$tmp/cluster" || true
  [[ -n "${PKB_KEEP_TMP:-}" ]] || rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "slurm_test: FAIL: $*" >&2; exit 1; }

set +e
"$src/tests/slurm/local_cluster.sh" start "$tmp/cluster"
status=$?
set -e
[[ $status -eq 77 ]] && { echo "slurm_test: skipped: the local Slurm did not start (reason above)" >&2; exit 77; }
[[ $status -eq 0 ]] || fail "local_cluster.sh start exited $status"
export SLURM_CONF=$tmp/cluster/slurm.conf PATH=$PATH:/usr/sbin
export PKB_CACHE_DIR=$tmp/cache NO_COLOR=1

p() { "$pkb" --problems-dir "$src/problems" "$@"; }
# The six problems with replay folders: every status.
run_args=(--model replay:examples/replay --problems 1-4,7,16 --samples 2 --dims test)

p -q run "${run_args[@]}" --out "$tmp/whole" || fail "the unsharded pkb run failed"
cd "$tmp"
job=$(p slurm submit --nodes 3 -- run "${run_args[@]}" --out sharded) || fail "pkb slurm submit failed"
[[ "$job" =~ ^[0-9]+$ ]] || fail "pkb slurm submit printed '$job', not a job id"
echo "slurm_test: array job $job submitted" >&2

merged=""
is_merged() { [[ -f sharded/run.json ]] && grep -q '"kind": "merged"' sharded/run.json; }
for ((second = 0; second < wait_s; second += 2)); do
  if is_merged; then merged=yes; break; fi
  if [[ -z "$(squeue -h -o %i 2>/dev/null)" ]] && [[ $second -gt 4 ]]; then
    # Every job ended; the merge job may have written run.json since the check above.
    is_merged && merged=yes
    break
  fi
  sleep 2
done
p slurm status sharded >&2 || true
if [[ -z "$merged" ]]; then
  tail -n 5 sharded/slurm/*.out >&2 2>/dev/null || true
  squeue >&2 || true
  fail "no merged run.json in sharded/ after ${second} s"
fi

# The same scores, whatever names the inputs had.
p score --json "$tmp/whole" > whole.json || fail "pkb score of the unsharded run failed"
p score --json sharded > sharded.json || fail "pkb score of the merged run failed"
python3 - whole.json sharded.json <<'PY' || fail "the merged scores differ from the unsharded run's"
import json, sys
docs = [json.load(open(path)) for path in sys.argv[1:]]
for doc in docs:
    doc.pop("inputs", None)
if docs[0] != docs[1]:
    for key in docs[0]:
        if docs[0].get(key) != docs[1].get(key):
            print(f"{key}: unsharded {json.dumps(docs[0][key])[:300]}\n  merged {json.dumps(docs[1].get(key))[:300]}", file=sys.stderr)
    sys.exit(1)
overall = docs[0]["overall"]
print("slurm_test: merged scores equal the unsharded run's:", json.dumps(overall)[:300], file=sys.stderr)
PY
for index in 0 1 2; do
  [[ -f sharded/slurm/shard-$index.out ]] || fail "no task output sharded/slurm/shard-$index.out"
done
echo "slurm_test: passed (3 shards, merged by job $(python3 -c 'import json;print(json.load(open("sharded/slurm/jobs.json"))["merge_job"])'))" >&2
