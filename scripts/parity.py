#!/usr/bin/python3
# Parity: runs each problem's reference.py in W gloo processes (parity_worker.py) on the inputs
# `pkb reference` dumps and compares with the C++ outputs. Needs Debian's torch 1.13 + gloo:
#   /usr/bin/python3 scripts/parity.py --pkb build/pkb --world 4 [--problems 1,2] [--dtypes bf16] [--drawn 1]
import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time

# Beside this file: run as a script, its folder is sys.path[0].
from parity_compare import verdict
from parity_dumps import BatchDumps
from parity_protocol import COLLECTIVE_TIMEOUT_S, POLL_S, read_results
from parity_world import World

SCRIPTS_DIR = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PROBLEMS_DIR = os.path.join(os.path.dirname(SCRIPTS_DIR), "problems")
KNOWN_DTYPES = ("bf16", "fp16", "fp32", "fp64")

# Once one worker has exited, the others fail within gloo's timeout or sooner (a closed socket).
EXIT_GRACE_S = COLLECTIVE_TIMEOUT_S + 15
# No new result for this long, with the job's dump ready, means a rank hangs outside gloo.
STALL_TIMEOUT_S = 2 * COLLECTIVE_TIMEOUT_S + 30


class UsageError(Exception):
    pass


class Job:
    def __init__(self, index, key, spec, dtype, world, run_dir, problems_dir, drawn=-1):
        # drawn >= 0: at pkb's k-th drawn check shape (size rules) instead of the test dims
        self.index, self.key, self.dtype, self.drawn = index, key, dtype, drawn
        self.label = f"parity {key} W={world} {dtype}" + (f" drawn {drawn}" if drawn >= 0 else "")
        self.dump_dir = os.path.join(run_dir, f"{key}_{dtype}" + (f"_drawn{drawn}" if drawn >= 0 else ""))
        self.pkb_error = None  # set when `pkb reference` failed
        self.pkb_done = False
        self.worker_spec = {
            "index": index, "key": key, "dtype": dtype, "dump_dir": self.dump_dir,
            "reference_py": os.path.join(problems_dir, key, "reference.py"),
            "tolerance": spec.get("tolerance", {}).get(dtype, {"atol": 0, "rtol": 0}),
            "scalar_types": {s["name"]: s.get("type", "float") for s in spec.get("scalars", [])},
            "groups": spec.get("groups", []),
        }


def load_problems(problems_dir, selection):
    """[(key, spec)] in id order, for --problems 'all' or a list of ids, keys or names."""
    found = {}
    for entry in sorted(os.listdir(problems_dir)):
        path = os.path.join(problems_dir, entry, "problem.json")
        if re.match(r"^\d{3}_", entry) and os.path.isfile(path):
            try:
                with open(path) as file:
                    found[entry] = json.load(file)
            except json.JSONDecodeError as err:
                raise UsageError(f"{path}: not JSON: {err}") from None
    if selection == "all":
        return sorted(found.items(), key=lambda item: item[1]["id"])
    chosen = []
    for item in selection.split(","):
        matches = [key for key, spec in found.items() if item in (key, spec.get("name"))
                   or (item.isdigit() and int(item) == spec["id"])]
        if not matches:
            raise UsageError(f"--problems: unknown problem '{item}' in {problems_dir}")
        chosen += [(key, found[key]) for key in matches if key not in dict(chosen)]
    return sorted(chosen, key=lambda item: item[1]["id"])


def run_jobs(args, jobs, run_dir, emit):
    """Runs the dumps, then the jobs in W workers, and emits one line per job in order."""
    os.makedirs(os.path.join(run_dir, "dumps_ready"))
    with open(os.path.join(run_dir, "jobs.json"), "w") as file:
        json.dump([job.worker_spec for job in jobs], file)
    dumps = BatchDumps(args, jobs, run_dir)
    world, epoch, next_job = None, 0, 0
    last_progress, seen_results = time.monotonic(), 0
    try:
        while next_job < len(jobs):
            for job in dumps.take_finished():
                marker = os.path.join(run_dir, "dumps_ready", str(job.index))
                with open(marker + ".tmp", "w") as file:
                    file.write("failed" if job.pkb_error else "ok")
                os.replace(marker + ".tmp", marker)
                last_progress = time.monotonic()
            job = jobs[next_job]
            if job.pkb_error:
                emit(f"{job.label}: FAIL {job.pkb_error}", ok=False)
                next_job += 1
                continue
            if not job.pkb_done:
                time.sleep(POLL_S)
                continue
            if world is None:
                world = World(args, run_dir, epoch, next_job)
                epoch, last_progress = epoch + 1, time.monotonic()
            results = read_results(run_dir, job.index)
            if len(results) == args.world:
                line = verdict(results)
                emit(f"{job.label}: {line}", ok=line == "ok")
                if any(r["status"] == "error" for r in results.values()):
                    # Its workers stop after an exception; the next job gets a fresh world.
                    world.stop()
                    world = None
                next_job, last_progress, seen_results = next_job + 1, time.monotonic(), 0
                continue
            if len(results) != seen_results:
                seen_results, last_progress = len(results), time.monotonic()
            codes = world.exit_codes()
            if all(code is not None for code in codes):
                if not world.started():
                    note = "; ".join(world.missing_notes(range(args.world)))
                    for job in jobs[next_job:]:
                        emit(f"{job.label}: FAIL workers did not start: {note}", ok=False)
                    return
                results = read_results(run_dir, job.index)  # the last ranks may just have written
                if len(results) == args.world:
                    continue
                missing = world.missing_notes([r for r in range(args.world) if r not in results])
                emit(f"{job.label}: {verdict(results, missing)}", ok=False)
                world, next_job, seen_results = None, next_job + 1, 0
            elif world.first_exit and all(code is not None or rank in results
                                          for rank, code in enumerate(codes)):
                world.kill()  # the survivors finished the job and wait for a peer that is gone
            elif world.first_exit and time.monotonic() - world.first_exit > EXIT_GRACE_S:
                world.kill(f"still running {EXIT_GRACE_S} s after another rank exited")
            elif time.monotonic() - last_progress > STALL_TIMEOUT_S:
                world.kill(f"no result within {STALL_TIMEOUT_S} s")
            time.sleep(POLL_S)
    finally:
        if world is not None:
            world.kill()
        dumps.stop()


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Compare problems' reference.py (gloo) with pkb's C++ references.")
    parser.add_argument("--pkb", help="path of the pkb binary (required)")
    parser.add_argument("--world", type=int, required=True, help="W, the number of ranks")
    parser.add_argument("--problems", default="all",
                        help="all, or ids, keys or names: 1,2,003_broadcast (all)")
    parser.add_argument("--dtypes", default="bf16,fp32", help="run precisions (bf16,fp32)")
    parser.add_argument("--problems-dir", help=f"problem folders ({DEFAULT_PROBLEMS_DIR})")
    parser.add_argument("--drawn", type=int, default=0,
                        help="also compare at N shapes drawn under each problem's size rules (0)")
    parser.add_argument("--report", help="also write the result lines to FILE")
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    if not args.pkb:
        raise UsageError("--pkb: required: the path of the pkb binary")
    if not os.access(args.pkb, os.X_OK):
        raise UsageError(f"--pkb {args.pkb}: expected an executable pkb binary")
    if args.world < 1:
        raise UsageError(f"--world {args.world}: expected a positive number of ranks")
    dtypes = args.dtypes.split(",")
    for dtype in dtypes:
        if dtype not in KNOWN_DTYPES:
            raise UsageError(f"--dtypes: expected some of {', '.join(KNOWN_DTYPES)}, got '{dtype}'")
    args.pkb = os.path.abspath(args.pkb)
    problems_dir = os.path.abspath(args.problems_dir or DEFAULT_PROBLEMS_DIR)
    if not os.path.isdir(problems_dir):
        raise UsageError(f"--problems-dir {problems_dir}: not a folder")
    problems = load_problems(problems_dir, args.problems)

    lines, counts = [], {"passed": 0, "failed": 0, "skipped": 0}

    def emit(line, ok=None):
        counts["skipped" if ok is None else "passed" if ok else "failed"] += 1
        lines.append(line)
        print(line, flush=True)

    run_dir = tempfile.mkdtemp(prefix="pkb-parity-")
    jobs = []
    for key, spec in problems:
        if args.world not in spec.get("world_sizes", []):
            emit(f"parity {key} W={args.world}: skip (world sizes "
                 f"{', '.join(map(str, spec.get('world_sizes', [])))})")
            continue
        for dtype in dtypes:
            if dtype not in spec.get("dtypes", []):
                emit(f"parity {key} W={args.world} {dtype}: skip "
                     f"(dtypes {', '.join(spec['dtypes'])})")
            else:
                for drawn in [-1] + list(range(args.drawn)):
                    jobs.append(Job(len(jobs), key, spec, dtype, args.world, run_dir, problems_dir, drawn))
    started = time.monotonic()
    try:
        run_jobs(args, jobs, run_dir, emit)
    finally:
        if counts["failed"]:
            print(f"parity: dumps and worker logs kept in {run_dir}", file=sys.stderr)
        else:
            shutil.rmtree(run_dir, ignore_errors=True)
    summary = (f"parity W={args.world}: {counts['passed']} passed, {counts['failed']} failed, "
               f"{counts['skipped']} skipped")
    lines.append(summary)
    print(summary, flush=True)
    print(f"parity: {len(jobs)} jobs in {time.monotonic() - started:.1f} s", file=sys.stderr)
    if args.report:
        os.makedirs(os.path.dirname(os.path.abspath(args.report)), exist_ok=True)
        with open(args.report + ".tmp", "w") as file:
            file.write("\n".join(lines) + "\n")
        os.replace(args.report + ".tmp", args.report)
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except UsageError as err:
        print(f"parity: error: {err}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
