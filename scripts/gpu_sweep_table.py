#!/usr/bin/env python3
"""The per-problem table of a scripts/gpu-check.sh sweep, for its summary and docs/GPU_RUNS.md.

  gpu_sweep_table.py --problems DIR --answers W=RESULTS_DIR ... [--references BATCH_OUT] [--markdown]

Each --answers names a results directory that `pkb run` wrote at world size W with a replay model
serving the reference answers; --references is the stdout of `pkb reference --batch` (one JSON line per job, in the
order of the problem folders). One row per problem: the status of its answer at each W (with the
first part of the message when it is not correct) and whether its reference ran at bench dims.
"""
import argparse
import json
import os
import sys


def problem_keys(problems_dir):
    return sorted(name for name in os.listdir(problems_dir)
                  if os.path.isfile(os.path.join(problems_dir, name, "problem.json")))


def answer_statuses(results_dir):
    """problem key -> (status, message) of sample 0, turn 0 (the reference answer's record)."""
    statuses = {}
    path = os.path.join(results_dir, "samples.jsonl")
    if not os.path.exists(path):
        return statuses
    with open(path) as lines:
        for line in lines:
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue  # a torn last line of a killed run
            if record.get("sample") == 0 and record.get("turn", 0) == 0:
                statuses[record["problem"]] = (record.get("status", "?"), record.get("message") or "")
    return statuses


def reference_results(path, keys):
    """problem key -> (ok, seconds or error) from `pkb reference --batch` output, job index = key order."""
    results = {}
    if not path or not os.path.exists(path):
        return results
    with open(path) as lines:
        for line in lines:
            try:
                answer = json.loads(line)
            except ValueError:
                continue
            index = answer.get("index", -1)
            if 0 <= index < len(keys):
                results[keys[index]] = (answer.get("ok", False), answer.get("seconds") if answer.get("ok")
                                        else answer.get("error", ""))
    return results


def cell(status_message):
    if status_message is None:
        return "never run"
    status, message = status_message
    return status if status in ("correct", "compiled") else "%s: %s" % (status, message[:80])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", required=True)
    parser.add_argument("--answers", action="append", default=[], metavar="W=DIR")
    parser.add_argument("--references")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    keys = problem_keys(args.problems)
    runs = []
    for item in args.answers:
        world, _, directory = item.partition("=")
        runs.append((world, answer_statuses(directory)))
    references = reference_results(args.references, keys)
    heads = ["problem"] + ["answer W=%s" % world for world, _ in runs] + ["reference (bench, GPU)"]
    rows = []
    counts = {}
    for key in keys:
        row = [key]
        for world, statuses in runs:
            value = statuses.get(key)
            row.append(cell(value))
            label = value[0] if value else "never run"
            counts[(world, label)] = counts.get((world, label), 0) + 1
        ref = references.get(key)
        row.append("not run" if ref is None else ("ok %.2f s" % ref[1] if ref[0] else "FAILED: %s" % str(ref[1])[:80]))
        rows.append(row)
    if args.markdown:
        print("| " + " | ".join(heads) + " |")
        print("|" + "---|" * len(heads))
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(str(r[i])) for r in rows + [heads]) for i in range(len(heads))]
        for row in [heads] + rows:
            print("  ".join(str(value).ljust(widths[i]) for i, value in enumerate(row)).rstrip())
    for world, _ in runs:
        summary = ", ".join("%s %d" % (label, n) for (w, label), n in sorted(counts.items()) if w == world)
        print("%sW=%s: %s" % ("- " if args.markdown else "# ", world, summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
