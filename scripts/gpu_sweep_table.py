#!/usr/bin/env python3
"""The per-problem table of a scripts/gpu-check.sh sweep, for its summary and docs/GPU_RUNS.md.

  gpu_sweep_table.py --problems DIR --answers LABEL=RESULTS_DIR ... [--references BATCH_OUT]
                     [--judge gpu|sim] [--markdown]

Each --answers names a results directory that `pkb run` wrote with a replay model serving the
reference answers; LABEL says its setting ("2" for W = 2, "8 fp16", "2 sim", ...) and heads its
column. --references is the stdout of `pkb reference --batch` (one JSON line per job, in the order
of the problem folders); without it the table has no reference column. One row per problem: the
status of its answer in each run (with the first part of the message when it is not correct; "not
allowed" where the problem does not allow that W or dtype) and whether its reference ran at bench
dims. A record judged on the simulated node (eval.judged_by
"sim") is marked "(sim)" when --judge is gpu, and a GPU verdict "(gpu)" when --judge is sim, so a
mixed table says who judged each cell.

Where a label X and a label "X sim" are both given (scripts/gpu-check.sh: the GPU's and the
simulated node's verdicts of the same answers at one W), the lines after the table list every
problem whose two verdicts differ, or say that none does: a difference is a bug of the interpreter
(harness/ptx) or of the GPU path.
"""
import argparse
import json
import os
import sys


def problem_keys(problems_dir):
    return sorted(name for name in os.listdir(problems_dir)
                  if os.path.isfile(os.path.join(problems_dir, name, "problem.json")))


def answer_statuses(results_dir):
    """problem key -> (status, message, judged_by) of sample 0, turn 0 (the reference answer's record)."""
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
                judged_by = (record.get("eval") or {}).get("judged_by", "")
                statuses[record["problem"]] = (record.get("status", "?"), record.get("message") or "", judged_by)
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


def allows(spec, label):
    """Whether the problem allows the setting a label names ("8", "2 fp16", "4 sim", "8 bf16 sim")."""
    for word in label.split():
        if word.isdigit() and "world_sizes" in spec and int(word) not in spec["world_sizes"]:
            return False
        if word in ("bf16", "fp16", "fp32") and word not in spec.get("dtypes", ["bf16", "fp16", "fp32"]):
            return False
    return True


def cell(value, judge):
    if value is None:
        return "never run"
    status, message, judged_by = value
    text = status if status in ("correct", "compiled") else "%s: %s" % (status, message[:80])
    # Who judged, where it is not the table's judge (a compile error was judged by nobody).
    if judged_by and judged_by != judge:
        text += " (%s)" % judged_by
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", required=True)
    parser.add_argument("--answers", action="append", default=[], metavar="W=DIR")
    parser.add_argument("--references")
    parser.add_argument("--judge", choices=("gpu", "sim"), default="gpu")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    keys = problem_keys(args.problems)
    runs = []
    for item in args.answers:
        world, _, directory = item.partition("=")
        runs.append((world, answer_statuses(directory)))
    references = reference_results(args.references, keys)
    heads = ["problem"] + ["answer W=%s" % world for world, _ in runs]
    if args.references:
        heads.append("reference (bench, GPU)")
    rows = []
    counts = {}
    for key in keys:
        row = [key]
        spec = json.load(open(os.path.join(args.problems, key, "problem.json")))
        for world, statuses in runs:
            value = statuses.get(key)
            allowed = value is not None or allows(spec, world)
            row.append(cell(value, args.judge) if allowed else "not allowed")
            label = value[0] if value else ("never run" if allowed else "not allowed")
            counts[(world, label)] = counts.get((world, label), 0) + 1
        if args.references:
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
    bullet = "- " if args.markdown else "# "
    for world, _ in runs:
        summary = ", ".join("%s %d" % (label, n) for (w, label), n in sorted(counts.items()) if w == world)
        print("%sW=%s: %s" % (bullet, world, summary))
    for line in disagreements(runs, keys):
        print(bullet + line)
    return 0


def disagreements(runs, keys):
    """Lines comparing each label X with "X sim": the problems whose statuses differ, judged by both."""
    by_label = dict(runs)
    lines = []
    for label, gpu in runs:
        sim = by_label.get(label + " sim")
        if sim is None or label.endswith(" sim"):
            continue
        differ = ["%s (GPU %s, simulated %s)" % (key, gpu[key][0], sim[key][0])
                  for key in keys if key in gpu and key in sim and gpu[key][0] != sim[key][0]]
        both = sum(1 for key in keys if key in gpu and key in sim)
        if differ:
            lines.append("W=%s: the GPU and the simulated node disagree on %d of %d: %s"
                         % (label, len(differ), both, "; ".join(differ)))
        else:
            lines.append("W=%s: the GPU and the simulated node agree on all %d judged by both" % (label, both))
    return lines


if __name__ == "__main__":
    sys.exit(main())
