#!/bin/sh
# A stand-in for pkb-worker in worker_client tests (no GPU): behaves as $FAKE_WORKER_MODE says.
# It reads the result and progress paths from the request the client wrote (argument 1).
request="$1"
result=$(sed -n 's/.*"result_path": "\(.*\)".*/\1/p' "$request")
progress=$(sed -n 's/.*"progress_path": "\(.*\)".*/\1/p' "$request")
printf 'trial 2: call' > "$progress"
case "$FAKE_WORKER_MODE" in
  correct)
    printf '{"schema_version": 1, "status": "correct", "message": "", "stage": "timing", "seconds": 1.5}' > "$result"
    echo "fake worker: done" >&2
    exit 0 ;;
  hang)
    exec sleep 30 ;;
  crash)
    echo "fake worker: about to crash" >&2
    kill -SEGV $$ ;;
  exit3)
    echo "fake worker: first line" >&2
    echo "fake worker: bad things happened" >&2
    exit 3 ;;
  result_then_hang)
    printf '{"schema_version": 1, "status": "timeout", "message": "trial 2: rank 1 did not finish within 2 s", "stage": "trial 2: call"}' > "$result"
    exec sleep 30 ;;
  garbage)
    printf 'not json' > "$result"
    exit 0 ;;
esac
echo "fake worker: unknown mode '$FAKE_WORKER_MODE'" >&2
exit 9
