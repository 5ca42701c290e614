#!/usr/bin/env python3
"""Checks the "sol" object of every problems/*/problem.json (issue 10).

Each expression is parsed and evaluated with the integer semantics of src/problem/shape_expr.cpp
(/ and % truncate toward zero, comparisons give 0 or 1, ceil_div, min, max, select) at every allowed
W, for both "dims" and "test_dims", with E = bytes per element of each allowed dtype (also named ELEM;
a problem's own dim called E keeps its meaning, as in src/problem/spec.cpp). A failure is
one line naming the problem, the field and the reason; the exit status is 1 when any failed.

  scripts/check_sol.py [--problems DIR] [--table W]

--table W prints each problem's fields at bench dims, world W and the first dtype, for notes.
"""
import argparse
import json
import os
import re
import sys

REQUIRED = ("link_bytes", "hbm_bytes", "flops")
OPTIONAL = ("link_bytes_nvls",)
DTYPE_BYTES = {"bf16": 2, "fp16": 2, "fp32": 4, "fp8": 1, "fp8_e4m3": 1, "fp8_e5m2": 1}
INT64_MAX = 2**63 - 1
FUNCTIONS = {"ceil_div": 2, "min": 2, "max": 2, "select": 3}


class ExprError(Exception):
    pass


def trunc_div(a, b):
    if b == 0:
        raise ExprError("division by zero")
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


class Parser:
    """The grammar of shape_expr.cpp: comparison > sum > product > unary > primary."""

    def __init__(self, text):
        self.text, self.pos = text, 0

    def fail(self, expected):
        found = repr(self.text[self.pos]) if self.pos < len(self.text) else "the end"
        raise ExprError(f"at column {self.pos + 1}: {expected}, got {found}")

    def accept(self, token):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        if self.text.startswith(token, self.pos):
            self.pos += len(token)
            return True
        return False

    def parse_all(self):
        node = self.comparison()
        if self.accept("") and self.pos != len(self.text):
            self.fail("expected an operator or the end")
        return node

    def comparison(self):
        lhs = self.sum()
        for op in ("==", "!=", "<=", ">=", "<", ">"):
            if self.accept(op):
                return ("bin", op, lhs, self.sum())
        return lhs

    def sum(self):
        lhs = self.product()
        while True:
            if self.accept("+"):
                lhs = ("bin", "+", lhs, self.product())
            elif self.accept("-"):
                lhs = ("bin", "-", lhs, self.product())
            else:
                return lhs

    def product(self):
        lhs = self.unary()
        while True:
            op = next((o for o in ("*", "/", "%") if self.accept(o)), None)
            if op is None:
                return lhs
            lhs = ("bin", op, lhs, self.unary())

    def unary(self):
        if self.accept("-"):
            return ("neg", self.unary())
        return self.primary()

    def primary(self):
        if self.accept("("):
            inner = self.comparison()
            if not self.accept(")"):
                self.fail("expected ')'")
            return inner
        match = re.compile(r"\d+|[A-Za-z_]\w*").match(self.text, self.pos)
        if not match:
            self.fail("expected a number, a name or '('")
        self.pos = match.end()
        token = match.group()
        if token[0].isdigit():
            return ("num", int(token))
        if self.accept("("):
            if token not in FUNCTIONS:
                raise ExprError(f"unknown function '{token}'")
            args = [self.comparison()]
            while self.accept(","):
                args.append(self.comparison())
            if not self.accept(")"):
                self.fail("expected ',' or ')'")
            if len(args) != FUNCTIONS[token]:
                raise ExprError(f"{token} takes {FUNCTIONS[token]} arguments, got {len(args)}")
            return ("call", token, args)
        return ("var", token)


def evaluate(node, env):
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "var":
        if node[1] not in env:
            raise ExprError(f"unknown variable '{node[1]}'")
        return env[node[1]]
    if kind == "neg":
        return -evaluate(node[1], env)
    if kind == "call":
        args = [evaluate(a, env) for a in node[2]]
        if node[1] == "select":
            return args[1] if args[0] != 0 else args[2]
        if node[1] == "min":
            return min(args)
        if node[1] == "max":
            return max(args)
        return trunc_div(args[0] + args[1] - 1, args[1])
    a, b = evaluate(node[2], env), evaluate(node[3], env)
    value = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
             "/": lambda: trunc_div(a, b), "%": lambda: a - b * trunc_div(a, b),
             "==": lambda: int(a == b), "!=": lambda: int(a != b), "<": lambda: int(a < b),
             "<=": lambda: int(a <= b), ">": lambda: int(a > b), ">=": lambda: int(a >= b)}[node[1]]()
    if abs(value) > INT64_MAX:
        raise ExprError("overflows int64")
    return value


def element_env(dims, world, dtype):
    """The names a sol expression sees: the dims, W, ELEM and E (ELEM's alias unless a dim is E)."""
    env = dict(dims)
    env["W"], env["ELEM"] = world, DTYPE_BYTES.get(dtype, 0)
    env.setdefault("E", env["ELEM"])
    return env


def environments(spec):
    """Every (label, env) the sol expressions must evaluate in."""
    for dims_key in ("dims", "test_dims"):
        for world in spec.get("world_sizes", []):
            for dtype in spec.get("dtypes", []):
                env = element_env(spec.get(dims_key, {}), world, dtype)
                yield f"{dims_key} W={world} {dtype}", env


def check_problem(name, spec):
    """The failure lines of one problem."""
    sol = spec.get("sol")
    if not isinstance(sol, dict):
        return [f"{name}: sol: missing"]
    failures = []
    for field in sorted(set(sol) - set(REQUIRED) - set(OPTIONAL) - {"notes"}):
        failures.append(f"{name}: sol.{field}: unknown field")
    for field in REQUIRED + OPTIONAL:
        entry = sol.get(field)
        if entry is None:
            if field in REQUIRED:
                failures.append(f"{name}: sol.{field}: missing")
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("expr"), str):
            failures.append(f"{name}: sol.{field}: missing \"expr\"")
            continue
        for key in sorted(set(entry) - {"expr", "why"}):
            failures.append(f"{name}: sol.{field}: unknown key \"{key}\"")
        if not isinstance(entry.get("why"), str) or not entry["why"].strip():
            failures.append(f"{name}: sol.{field}: missing \"why\"")
        try:
            tree = Parser(entry["expr"]).parse_all()
        except ExprError as error:
            failures.append(f"{name}: sol.{field}: {error}")
            continue
        for label, env in environments(spec):
            try:
                value = evaluate(tree, env)
            except ExprError as error:
                failures.append(f"{name}: sol.{field}: at {label}: {error}")
                break
            if value < 0:
                failures.append(f"{name}: sol.{field}: at {label}: negative value {value}")
                break
    for dtype in spec.get("dtypes", []):
        if dtype not in DTYPE_BYTES:
            failures.append(f"{name}: sol: no element size known for dtype {dtype}")
    if not spec.get("world_sizes") or not spec.get("dtypes"):
        failures.append(f"{name}: sol: no world_sizes or dtypes to evaluate at")
    return failures


def table_row(name, spec, world):
    dtype = spec["dtypes"][0]
    env = element_env(spec["dims"], world, dtype)
    cells = []
    for field in ("link_bytes", "link_bytes_nvls", "hbm_bytes", "flops"):
        entry = spec["sol"].get(field)
        cells.append("-" if entry is None else str(evaluate(Parser(entry["expr"]).parse_all(), env)))
    return f"| {name} | {dtype} | " + " | ".join(cells) + " |"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "problems")
    parser.add_argument("--problems", default=default_dir)
    parser.add_argument("--table", type=int, metavar="W")
    args = parser.parse_args()
    failures, rows, count = [], [], 0
    for entry in sorted(os.listdir(args.problems)):
        path = os.path.join(args.problems, entry, "problem.json")
        if not os.path.isfile(path):
            continue
        count += 1
        try:
            with open(path, encoding="utf-8") as handle:
                spec = json.load(handle)
        except (OSError, ValueError) as error:
            failures.append(f"{entry}: problem.json: {error}")
            continue
        problem_failures = check_problem(entry, spec)
        failures += problem_failures
        if args.table and not problem_failures and args.table in spec["world_sizes"]:
            rows.append(table_row(entry, spec, args.table))
    if rows:
        print("| problem | dtype | link_bytes | link_bytes_nvls | hbm_bytes | flops |")
        print("|---|---|---|---|---|---|")
        print("\n".join(rows))
    for line in failures:
        print(line, file=sys.stderr)
    print(f"check_sol: {count} problems, {len(failures)} failures", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
