#!/usr/bin/env python3
"""Start-up time of pkb's everyday commands: the median of N runs (after 2 warm-up runs) of each,
wall clock, stdout and stderr discarded. scripts/bench.sh runs it; it is a benchmark, not a test.

  bench_startup.py PKB [--runs 10] [--json OUT]
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMANDS = [
    ["--help"],
    ["list"],
    ["show", "13", "--json"],
    ["prompt", "13", "--hash"],
    ["score", os.path.join(SOURCE, "tests", "score", "data", "basic")],
]


def seconds_of(pkb, args):
    start = time.perf_counter()
    done = subprocess.run([pkb] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit("bench_startup: pkb %s exited %d" % (" ".join(args), done.returncode))
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pkb")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = []
    for command in COMMANDS:
        for _ in range(2):
            seconds_of(args.pkb, command)
        times = sorted(seconds_of(args.pkb, command) for _ in range(args.runs))
        rows.append({"command": "pkb " + " ".join(command).replace(SOURCE + "/", ""),
                     "median_ms": statistics.median(times) * 1e3, "min_ms": times[0] * 1e3,
                     "max_ms": times[-1] * 1e3, "runs": args.runs})
    commit = subprocess.run(["git", "-C", SOURCE, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "none"
    print("# pkb start-up, median of %d runs after 2 warm-ups; %s, %d cores, commit %s"
          % (args.runs, platform.processor() or platform.machine(), os.cpu_count(), commit))
    print("%-40s %10s %8s %8s" % ("command", "median_ms", "min_ms", "max_ms"))
    for row in rows:
        print("%-40s %10.1f %8.1f %8.1f" % (row["command"], row["median_ms"], row["min_ms"], row["max_ms"]))
    slowest = max(rows, key=lambda row: row["median_ms"])
    print("# slowest: %s at %.1f ms" % (slowest["command"], slowest["median_ms"]))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"schema_version": 1, "commit": commit, "cpus": os.cpu_count(), "rows": rows}, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
