#!/usr/bin/env python3
"""Enforces the layer table of docs/ARCHITECTURE.md: a file may include headers of its own layer
and of lower ones, never of a higher one (an upward include), and every folder with code must be
in the table. Prints each violation as FILE:LINE: ... and exits 1 when there is any.

  check_layers.py [--root DIR] [--table FILE]     (defaults: this checkout, docs/ARCHITECTURE.md)

The table is the markdown table between the lines "<!-- layers -->" and "<!-- /layers -->":
| layer | folders |, one row per layer from the bottom up, folders as `path/` in backticks.
"""
import argparse
import os
import re
import sys

CODE_ROOTS = ("src", "harness", "reference")
SUFFIXES = (".h", ".cpp", ".cuh", ".cu", ".inc")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def read_table(path):
    """[(layer number, layer name, [folder, ...])] from the marked table."""
    text = open(path).read()
    start, end = text.find("<!-- layers -->"), text.find("<!-- /layers -->")
    if start < 0 or end < start:
        sys.exit("%s: no <!-- layers --> ... <!-- /layers --> table" % path)
    layers = []
    for line in text[start:end].splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0][:1].isdigit():
            continue
        folders = re.findall(r"`([^`]+)/`", cells[1])
        layers.append((int(cells[0].split()[0]), cells[0], folders))
    if not layers:
        sys.exit("%s: the layer table has no rows" % path)
    return layers


def layer_of(path, layers):
    """The layer number of a repository-relative path: its longest matching folder."""
    best = None
    for number, _, folders in layers:
        for folder in folders:
            if (path == folder or path.startswith(folder + "/")) and (best is None or len(folder) > len(best[1])):
                best = (number, folder)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--root", default=here)
    parser.add_argument("--table")
    args = parser.parse_args()
    layers = read_table(args.table or os.path.join(args.root, "docs", "ARCHITECTURE.md"))
    problems = []
    for code_root in CODE_ROOTS:
        for directory, _, files in os.walk(os.path.join(args.root, code_root)):
            for name in sorted(files):
                if not name.endswith(SUFFIXES):
                    continue
                path = os.path.relpath(os.path.join(directory, name), args.root)
                own = layer_of(path, layers)
                if own is None:
                    problems.append("%s: its folder is in no layer of the table" % path)
                    continue
                with open(os.path.join(args.root, path), errors="replace") as source:
                    for number, line in enumerate(source, 1):
                        match = INCLUDE.match(line)
                        if not match or not match.group(1).startswith(tuple(root + "/" for root in CODE_ROOTS)):
                            continue
                        target = layer_of(match.group(1), layers)
                        if target is not None and target[0] > own[0]:
                            problems.append("%s:%d: includes %s (layer %d, %s/) from layer %d (%s/): an upward include"
                                            % (path, number, match.group(1), target[0], target[1], own[0], own[1]))
    for problem in problems:
        print(problem)
    print("check_layers: %d layers, %d violations" % (len(layers), len(problems)), file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
