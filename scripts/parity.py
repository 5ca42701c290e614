#!/usr/bin/python3
# Parity: runs each problem's reference.py in W gloo processes on the inputs `pkb reference` dumps
# and compares with the C++ reference's outputs. Needs Debian's interpreter (torch 1.13 + gloo):
#   /usr/bin/python3 scripts/parity.py --pkb build/pkb --world 4 [--problems 1,2] [--dtypes bf16]
import argparse
import ast
import concurrent.futures
import ctypes
import datetime
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

SCRIPTS_DIR = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PROBLEMS_DIR = os.path.join(os.path.dirname(SCRIPTS_DIR), "problems")
KNOWN_DTYPES = ("bf16", "fp16", "fp32", "fp64")

COLLECTIVE_TIMEOUT_S = 60  # gloo's timeout: a rank waiting this long on a peer raises
# Once one worker has exited, the others fail within gloo's timeout or sooner (a closed socket).
EXIT_GRACE_S = COLLECTIVE_TIMEOUT_S + 15
# No new result for this long, with the job's dump ready, means a rank hangs outside gloo.
STALL_TIMEOUT_S = 2 * COLLECTIVE_TIMEOUT_S + 30
PKB_TIMEOUT_S = 300
POLL_S = 0.01
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


class UsageError(Exception):
    pass


# ---------------------------------------------------------------- parent: plan, dumps, workers

class Job:
    def __init__(self, index, key, spec, dtype, world, run_dir, problems_dir):
        self.index, self.key, self.dtype = index, key, dtype
        self.label = f"parity {key} W={world} {dtype}"
        self.dump_dir = os.path.join(run_dir, f"{key}_{dtype}")
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


def run_pkb(args, job):
    """Writes the job's dump; returns None or the failure message."""
    command = [args.pkb] + (["--problems-dir", args.problems_dir] if args.problems_dir else [])
    command += ["reference", job.key, "--world", str(args.world), "--dtype", job.dtype,
                "--dims", "test", "--dump", job.dump_dir]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, errors="replace",
                              timeout=PKB_TIMEOUT_S)
    except OSError as err:
        return f"cannot run {args.pkb}: {err}"
    except subprocess.TimeoutExpired:
        return f"pkb reference timed out after {PKB_TIMEOUT_S} s"
    if proc.returncode != 0:
        return f"pkb reference exited with code {proc.returncode}: {one_line(proc.stderr)}"
    return None


def one_line(text, limit=2000):
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return (" | ".join(lines) or "(no output)")[:limit]


class World:
    """W worker processes that run jobs from first_job on, until one fails or all are done."""

    def __init__(self, args, run_dir, epoch, first_job):
        self.dir = os.path.join(run_dir, f"epoch{epoch}")
        os.makedirs(self.dir)
        self.procs, self.first_exit, self.killed = [], None, {}  # rank -> why we killed it
        env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
        env.setdefault("GLOO_SOCKET_IFNAME", "lo")  # loopback: gloo otherwise resolves the hostname
        for rank in range(args.world):
            with open(os.path.join(self.dir, f"rank{rank}.log"), "wb") as log:
                self.procs.append(subprocess.Popen(
                    [sys.executable, os.path.abspath(__file__), "--worker", str(rank),
                     "--world", str(args.world), "--run-dir", run_dir, "--epoch", str(epoch),
                     "--first-job", str(first_job)],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env))

    def exit_codes(self):
        codes = [proc.poll() for proc in self.procs]
        if self.first_exit is None and any(code is not None for code in codes):
            self.first_exit = time.monotonic()
        return codes

    def started(self):
        return all(os.path.exists(os.path.join(self.dir, f"ready{rank}"))
                   for rank in range(len(self.procs)))

    def kill(self, reason="stopped by the runner"):
        for rank, proc in enumerate(self.procs):
            if proc.poll() is None:
                self.killed[rank] = reason
                proc.kill()
        for proc in self.procs:
            proc.wait()

    def stop(self):
        """After a failed job the workers exit by themselves; give them a moment."""
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(code is None for code in self.exit_codes()):
            time.sleep(POLL_S)
        self.kill()

    def missing_notes(self, ranks):
        """Why `ranks` gave no result, one note per distinct reason: "ranks 1, 3 gave no result
        (exited with code 1): <last line of their output>"."""
        reasons = {}
        for rank in ranks:
            code = self.procs[rank].returncode
            how = f"killed: {self.killed[rank]}" if rank in self.killed else (
                f"exited with signal {-code}" if code is not None and code < 0
                else f"exited with code {code}")
            with open(os.path.join(self.dir, f"rank{rank}.log"), "rb") as log:
                lines = log.read()[-4000:].decode("utf-8", "replace").strip().splitlines()
            reasons.setdefault((how, lines[-1].strip()[:600] if lines else ""), []).append(rank)
        return [f"rank{'s' if len(group) > 1 else ''} {', '.join(map(str, group))} gave no result "
                f"({how})" + (f": {last_line}" if last_line else "")
                for (how, last_line), group in reasons.items()]


def read_results(run_dir, index):
    folder = os.path.join(run_dir, "results", str(index))
    results = {}
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as file:
                result = json.load(file)
            results[result["rank"]] = result
    return results


def verdict(results, notes=()):
    """One line from every rank's result and the notes on ranks that gave none: ok, or the
    likeliest cause first (a rank that died or hung, else the first exception, else the lowest
    rank that differs); the other ranks' failures usually follow from it."""
    failed = [result for result in results.values() if result["status"] != "ok"]
    if not failed and not notes:
        return "ok"
    errors = sorted((r for r in failed if r["status"] == "error"), key=lambda r: r["time"])
    head = errors[0] if errors else min(failed, key=lambda r: r["rank"]) if failed else None
    parts = list(notes)
    if head:
        separator = ": " if head["status"] == "error" else " "
        parts.append(f"rank {head['rank']}{separator}{head['message']}")
        others = sorted(r["rank"] for r in failed if r is not head)
        if others:
            parts.append(f"rank{'s' if len(others) > 1 else ''} {', '.join(map(str, others))} "
                         "failed too")
    return "FAIL " + "; ".join(parts)


def run_jobs(args, jobs, run_dir, emit):
    """Runs the dumps, then the jobs in W workers, and emits one line per job in order."""
    os.makedirs(os.path.join(run_dir, "dumps_ready"))
    with open(os.path.join(run_dir, "jobs.json"), "w") as file:
        json.dump([job.worker_spec for job in jobs], file)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1))
    pending = {pool.submit(run_pkb, args, job): job for job in jobs}
    world, epoch, next_job = None, 0, 0
    last_progress, seen_results = time.monotonic(), 0
    try:
        while next_job < len(jobs):
            for future in [f for f in pending if f.done()]:
                job = pending.pop(future)
                job.pkb_error, job.pkb_done = future.result(), True
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
        pool.shutdown(wait=True, cancel_futures=True)


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Compare problems' reference.py (gloo) with pkb's C++ references.")
    parser.add_argument("--pkb", help="path of the pkb binary (required)")
    parser.add_argument("--world", type=int, required=True, help="W, the number of ranks")
    parser.add_argument("--problems", default="all",
                        help="all, or ids, keys or names: 1,2,003_broadcast (all)")
    parser.add_argument("--dtypes", default="bf16,fp32", help="run precisions (bf16,fp32)")
    parser.add_argument("--problems-dir", help=f"problem folders ({DEFAULT_PROBLEMS_DIR})")
    parser.add_argument("--report", help="also write the result lines to FILE")
    for hidden in ("--worker", "--run-dir", "--epoch", "--first-job"):
        parser.add_argument(hidden, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    if args.worker is not None:
        return worker_main(int(args.worker), args.world, args.run_dir, int(args.epoch),
                           int(args.first_job))
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
                jobs.append(Job(len(jobs), key, spec, dtype, args.world, run_dir, problems_dir))
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
        with open(args.report + ".tmp", "w") as file:
            file.write("\n".join(lines) + "\n")
        os.replace(args.report + ".tmp", args.report)
    return 1 if counts["failed"] else 0


# ---------------------------------------------------------------- worker: one rank of the world

def worker_main(rank, world, run_dir, epoch, first_job):
    sys.dont_write_bytecode = True  # importing reference.py must not leave __pycache__ in problems/
    import torch
    import torch.distributed as dist

    torch.set_num_threads(1)  # W workers share the machine's cores
    install_shims(torch, dist)
    parent = os.getppid()
    try:  # Linux: die with the runner even when stuck in a reference's own loop
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass  # elsewhere wait_until's parent check is the fallback
    epoch_dir = os.path.join(run_dir, f"epoch{epoch}")
    dist.init_process_group("gloo", init_method=f"file://{epoch_dir}/store", rank=rank,
                            world_size=world,
                            timeout=datetime.timedelta(seconds=COLLECTIVE_TIMEOUT_S))
    open(os.path.join(epoch_dir, f"ready{rank}"), "w").close()
    with open(os.path.join(run_dir, "jobs.json")) as file:
        jobs = json.load(file)
    for job in jobs[first_job:]:
        marker = os.path.join(run_dir, "dumps_ready", str(job["index"]))
        wait_until(lambda: os.path.exists(marker), parent)
        with open(marker) as file:
            if file.read() != "ok":
                continue  # the parent reports pkb's failure; every rank skips the job alike
        result = run_job(job, rank, world, torch, dist)
        folder = os.path.join(run_dir, "results", str(job["index"]))
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"rank{rank}.json")
        with open(path + ".tmp", "w") as file:
            json.dump(result, file)
        os.replace(path + ".tmp", path)  # the parent and peers never see half a file
        sys.stdout.flush()
        sys.stderr.flush()
        # After an exception the process group may be out of step; exiting at once also closes
        # this rank's sockets, so peers blocked on it fail now rather than after gloo's timeout.
        if result["status"] == "error":
            os._exit(3)
        # Peers may still be in the job; moving on before they finish would mix two jobs' traffic.
        wait_until(lambda: all(os.path.exists(os.path.join(folder, f"rank{r}.json"))
                               for r in range(world)), parent)
        if any(read_results(run_dir, job["index"])[r]["status"] == "error" for r in range(world)):
            os._exit(0)
    os._exit(0)  # skips torch's teardown, which can block on peers that already left


def wait_until(condition, parent):
    while not condition():
        if os.getppid() != parent:  # the runner died: nobody will read our results
            os._exit(1)
        time.sleep(POLL_S / 4)


def run_job(job, rank, world, torch, dist):
    import safetensors_io

    try:
        with open(os.path.join(job["dump_dir"], "manifest.json")) as file:
            manifest = json.load(file)
        rank_entry = check_manifest(job, manifest, rank, world)
        kwargs = scalar_kwargs(job, manifest)
        env = dict(manifest.get("dims", {}), W=world, rank=rank)
        groups = make_groups(job["groups"], env, rank, world, dist)
        if groups:
            kwargs["groups"] = groups
        rank_dir = os.path.join(job["dump_dir"], f"rank{rank}")
        inputs = load_named(safetensors_io, os.path.join(rank_dir, "inputs.safetensors"),
                            rank_entry["inputs"])
        expected = load_named(safetensors_io, os.path.join(rank_dir, "outputs.safetensors"),
                              rank_entry["outputs"])
        spec = importlib.util.spec_from_file_location(f"pkb_reference_{job['index']}",
                                                      job["reference_py"])
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # as a normal import would; dataclasses look it up
        spec.loader.exec_module(module)
        originals = {name: tensor.clone() for name, tensor in inputs.items()}
        returned = module.solution(*inputs.values(), **kwargs)
        message = check_outputs(torch, returned, expected, job["tolerance"])
        for name, original in originals.items():
            # An input that is also an output is inout: the reference may return it updated.
            if message is None and name not in expected and not same_bits(torch, original,
                                                                           inputs[name]):
                message = f"input {name}: solution modified it (reference.py must clone first)"
    except Exception as err:  # any failure of the job is its result; the runner goes on
        return {"rank": rank, "status": "error", "time": time.time(),
                "message": describe_exception(err, job["reference_py"])}
    return {"rank": rank, "status": "ok" if message is None else "mismatch", "time": time.time(),
            "message": message or ""}


def check_manifest(job, manifest, rank, world):
    got = (manifest.get("problem", {}).get("key"), manifest.get("world"), manifest.get("dtype"))
    if got != (job["key"], world, job["dtype"]):
        raise ValueError(f"manifest.json: expected problem, world, dtype "
                         f"{(job['key'], world, job['dtype'])}, got {got}")
    ranks = manifest.get("ranks", [])
    if len(ranks) != world or ranks[rank].get("rank") != rank:
        raise ValueError(f"manifest.json: ranks: expected {world} entries in rank order")
    return ranks[rank]


def scalar_kwargs(job, manifest):
    # pkb stores every scalar as a double, so an int scalar may arrive as 0.0.
    values = manifest.get("scalars", {})
    kwargs = {}
    for name, kind in job["scalar_types"].items():
        if name not in values:
            raise ValueError(f"manifest.json: scalars: expected a value for {name}")
        value = values[name]
        if kind == "int" and float(value) != int(value):
            raise ValueError(f"manifest.json: scalars.{name}: expected an int, got {value}")
        kwargs[name] = int(value) if kind == "int" else float(value)
    return kwargs


def load_named(safetensors_io, path, entries):
    """The tensors of `path` in the manifest's order, checked against its dtypes and shapes."""
    tensors, _ = safetensors_io.read_safetensors(path)
    ordered = {}
    for entry in entries:
        name = entry["name"]
        if name not in tensors:
            raise ValueError(f"{path}: expected a tensor named {name}")
        tensor = tensors[name]
        got = (safetensors_io.pkb_dtype_name(tensor.dtype), list(tensor.shape))
        want_dtype = "uint8" if entry["dtype"].startswith("fp8") else entry["dtype"]
        if got != (want_dtype, list(entry["shape"])):
            raise ValueError(f"{path}: {name}: manifest says {entry['dtype']} {entry['shape']}, "
                             f"file holds {got[0]} {got[1]}")
        ordered[name] = tensor
    return ordered


def describe_exception(err, reference_py):
    text = f"{type(err).__name__}: {one_line(str(err), 500)}"
    frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename == reference_py]
    return text + (f" (reference.py line {frames[-1].lineno})" if frames else "")


def make_groups(group_specs, env, rank, world, dist):
    """{name: this rank's group}; every rank creates every group instance in the same order."""
    mine = {}
    for group in group_specs:
        size = eval_expr(str(group["size"]), env)
        if size < 1 or world % size:
            raise ValueError(f"groups.{group['name']}: size {size} does not divide W={world}")
        stride = world // size
        layout = group.get("layout", "block")
        if layout == "block":
            instances = [list(range(first, first + size)) for first in range(0, world, size)]
        elif layout == "strided":  # ranks congruent modulo W / size
            instances = [list(range(offset, world, stride)) for offset in range(stride)]
        else:
            raise ValueError(f"groups.{group['name']}.layout: expected block or strided, "
                             f"got {layout!r}")
        for members in instances:
            made = dist.new_group(members, timeout=datetime.timedelta(seconds=COLLECTIVE_TIMEOUT_S))
            if rank in members:
                mine[group["name"]] = made
    return mine


def eval_expr(text, env):
    """problem.json's integer expressions, as src/problem/shape_expr.cpp reads them: C division
    and remainder (toward zero), comparisons giving 0 or 1, ceil_div, min, max, select."""
    def trunc_div(a, b):
        if b == 0:
            raise ValueError(f'expression "{text}": division by zero')
        quotient = abs(a) // abs(b)
        return quotient if (a < 0) == (b < 0) else -quotient

    binary = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
              ast.Mult: lambda a, b: a * b, ast.Div: trunc_div,
              ast.Mod: lambda a, b: a - b * trunc_div(a, b),
              ast.Eq: lambda a, b: int(a == b), ast.NotEq: lambda a, b: int(a != b),
              ast.Lt: lambda a, b: int(a < b), ast.LtE: lambda a, b: int(a <= b),
              ast.Gt: lambda a, b: int(a > b), ast.GtE: lambda a, b: int(a >= b)}
    calls = {"ceil_div": lambda a, b: trunc_div(a + b - 1, b), "min": lambda a, b: min(a, b),
             "max": lambda a, b: max(a, b), "select": lambda c, a, b: a if c else b}

    def value(node):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in env:
                raise ValueError(f"expression \"{text}\": unknown name '{node.id}'")
            return int(env[node.id])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in binary:
            return binary[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in binary:
            return binary[type(node.ops[0])](value(node.left), value(node.comparators[0]))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in calls and not node.keywords):
            function = calls[node.func.id]
            if len(node.args) != function.__code__.co_argcount:
                raise ValueError(f'expression "{text}": {node.func.id} takes '
                                 f"{function.__code__.co_argcount} arguments")
            return function(*[value(arg) for arg in node.args])
        raise ValueError(f'expression "{text}": unsupported syntax')

    try:
        return value(ast.parse(text, mode="eval").body)
    except SyntaxError:
        raise ValueError(f'expression "{text}": not an expression') from None


# ---------------------------------------------------------------- worker: comparing outputs

def check_outputs(torch, returned, expected, tolerance):
    """None if `returned` matches the dumped outputs, else what differs first."""
    outputs = list(returned) if isinstance(returned, (tuple, list)) else [returned]
    if len(outputs) != len(expected):
        return (f"returned {len(outputs)} outputs, expected {len(expected)} "
                f"({', '.join(expected)})")
    for (name, want), got in zip(expected.items(), outputs):
        if not isinstance(got, torch.Tensor):
            return f"output {name}: expected a tensor, got {type(got).__name__}"
        message = compare_tensor(torch, got.detach().cpu(), want, tolerance)
        if message:
            return f"output {name}: {message}"
    return None


def compare_tensor(torch, got, want, tolerance):
    from safetensors_io import pkb_dtype_name

    if got.dtype != want.dtype:
        return f"dtype {pkb_dtype_name(got.dtype)}, expected {pkb_dtype_name(want.dtype)}"
    if got.shape != want.shape:
        return f"shape {tuple(got.shape)}, expected {tuple(want.shape)}"
    if want.numel() == 0:
        return None
    floating = want.dtype.is_floating_point
    if floating:
        py, cpp = got.double().reshape(-1), want.double().reshape(-1)
        finite = torch.isfinite(py) & torch.isfinite(cpp)
        # Non-finite values must sit at the same places: NaN against NaN, inf against same inf.
        same_special = (torch.isnan(py) & torch.isnan(cpp)) | (py == cpp)
        diff = torch.where(finite, (py - cpp).abs(), torch.zeros_like(py))
        bad_special = ~finite & ~same_special
        bad = bad_special | (finite & (diff > allowed_error(torch, cpp, want.dtype, tolerance)))
    else:  # integers and bool: exact
        py, cpp = got.to(torch.int64).reshape(-1), want.to(torch.int64).reshape(-1)
        diff = (py - cpp).abs()
        bad = bad_special = diff != 0
    if not bad.any():
        return None
    # Point at a misplaced NaN/inf first (its |diff| is no number), else at the largest |diff|.
    if bad_special.any():
        worst = int(torch.argmax(bad_special.to(torch.uint8)))
    else:
        worst = int(torch.argmax(torch.where(bad, diff, torch.full_like(diff, -1))))
    show = (lambda t: repr(float(t[worst]))) if floating else (lambda t: str(int(t[worst])))
    what = "nan/inf mismatch" if floating and bad_special[worst] else f"max |diff| {show(diff)}"
    index = ", ".join(str(i) for i in unravel(worst, want.shape))
    return (f"{what} at index ({index}), python {show(py)} vs c++ {show(cpp)} "
            f"({int(bad.sum())} of {want.numel()} elements differ)")


def allowed_error(torch, cpp, dtype, tolerance):
    """atol + rtol * |cpp| + one unit in the last place of `dtype` at |cpp|: the ulp covers
    gloo's and pkb's fp32 accumulations rounding differently in the last bit."""
    info = torch.finfo(dtype)
    magnitude = cpp.abs()
    ulp = torch.clamp(torch.exp2(torch.floor(torch.log2(magnitude))), min=info.tiny) * info.eps
    return tolerance.get("atol", 0) + tolerance.get("rtol", 0) * magnitude + ulp


def unravel(flat_index, shape):
    index = []
    for size in reversed(shape):
        index.append(flat_index % size)
        flat_index //= size
    return list(reversed(index))


def same_bits(torch, a, b):
    if a.dtype.is_floating_point:  # NaN != NaN, so compare the bit patterns
        views = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
        a, b = a.view(views[a.element_size()]), b.view(views[b.element_size()])
    return a.shape == b.shape and torch.equal(a, b)


# ---------------------------------------------------------------- worker: gloo shims

class CompletedWork:
    """What a shimmed collective returns for async_op=True: it already ran synchronously."""

    def wait(self, timeout=None):
        return True

    def is_completed(self):
        return True

    def is_success(self):
        return True


def install_shims(torch, dist):
    """Gives reference.py NCCL's collectives with pkb's semantics on top of torch 1.13's gloo,
    which lacks bf16, int16 and bool in every collective, AVG, the *_tensor forms and list
    all_to_all (research/parity-gloo.md). Reductions gather every rank's tensor and combine them
    in rank order exactly as reference/comm/sim_reduce.cpp does, so results match bit for bit."""
    c10d = dist.distributed_c10d
    original = {name: getattr(c10d, name) for name in
                ("all_gather", "broadcast", "gather", "scatter", "all_to_all_single")}
    ops = dist.ReduceOp
    # Data movement is a byte copy, so unsupported types travel as a same-size supported one.
    carrier = {torch.bfloat16: torch.float16, torch.int16: torch.float16, torch.bool: torch.uint8}

    def wire(tensor):
        return tensor.view(carrier[tensor.dtype]) if tensor.dtype in carrier else tensor

    def outside(group):
        return group is not None and c10d._rank_not_in_group(group)

    def finish(async_op):
        return CompletedWork() if async_op else None

    def gather_all(tensor, group):
        parts = [torch.empty(tensor.shape, dtype=tensor.dtype) for _ in
                 range(dist.get_world_size(group))]
        original["all_gather"]([wire(p) for p in parts], wire(tensor.contiguous()), group=group)
        return parts

    def combine(parts, op):
        dtype = parts[0].dtype
        if op == ops.MAX or op == ops.MIN:
            pick = torch.maximum if op == ops.MAX else torch.minimum
            acc = parts[0].clone()
            for part in parts[1:]:
                acc = pick(acc, part)
            return acc
        acc_type = (torch.float64 if dtype == torch.float64 else
                    torch.float32 if dtype.is_floating_point else torch.int64)
        acc = parts[0].to(acc_type, copy=True)
        if op == ops.SUM or op == ops.AVG:
            for part in parts[1:]:
                acc.add_(part.to(acc_type))
            if op == ops.AVG:
                acc = (acc / float(len(parts)) if acc_type.is_floating_point
                       else torch.div(acc, len(parts), rounding_mode="trunc"))
        elif op == ops.PRODUCT:
            for part in parts[1:]:
                acc.mul_(part.to(acc_type))
        else:
            raise NotImplementedError(f"parity shim: reduce op {op} is not supported")
        return acc.to(dtype)

    def all_reduce(tensor, op=ops.SUM, group=None, async_op=False):
        if not outside(group):
            tensor.copy_(combine(gather_all(tensor, group), op))
        return finish(async_op)

    def reduce(tensor, dst, op=ops.SUM, group=None, async_op=False):
        if not outside(group):
            combined = combine(gather_all(tensor, group), op)
            if dist.get_rank() == dst:  # NCCL: only the destination's buffer changes
                tensor.copy_(combined)
        return finish(async_op)

    def reduce_scatter_tensor(output, input, op=ops.SUM, group=None, async_op=False):
        if outside(group):
            return finish(async_op)
        if input.numel() != dist.get_world_size(group) * output.numel():
            raise ValueError(f"reduce_scatter_tensor: input has {input.numel()} elements, "
                             f"expected group size x {output.numel()}")
        combined = combine(gather_all(input, group), op).reshape(-1)
        start = dist.get_rank(group) * output.numel()
        output.copy_(combined[start:start + output.numel()].view(output.shape))
        return finish(async_op)

    def reduce_scatter(output, input_list, op=ops.SUM, group=None, async_op=False):
        flat = torch.cat([t.reshape(-1) for t in input_list])
        return reduce_scatter_tensor(output, flat, op, group, async_op)

    def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
        if outside(group):
            return finish(async_op)
        flat = torch.cat([p.reshape(-1) for p in gather_all(input_tensor, group)])
        if output_tensor.numel() != flat.numel():
            raise ValueError(f"all_gather_into_tensor: output has {output_tensor.numel()} "
                             f"elements, expected {flat.numel()}")
        output_tensor.copy_(flat.view(output_tensor.shape))  # stacked or concatenated alike
        return finish(async_op)

    def all_gather(tensor_list, tensor, group=None, async_op=False):
        return original["all_gather"]([wire(t) for t in tensor_list], wire(tensor), group=group,
                                      async_op=async_op)

    def broadcast(tensor, src, group=None, async_op=False):
        return original["broadcast"](wire(tensor), src, group=group, async_op=async_op)

    def gather(tensor, gather_list=None, dst=0, group=None, async_op=False):
        wired = None if gather_list is None else [wire(t) for t in gather_list]
        return original["gather"](wire(tensor), wired, dst=dst, group=group, async_op=async_op)

    def scatter(tensor, scatter_list=None, src=0, group=None, async_op=False):
        wired = None if scatter_list is None else [wire(t) for t in scatter_list]
        return original["scatter"](wire(tensor), wired, src=src, group=group, async_op=async_op)

    def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,
                          group=None, async_op=False):
        return original["all_to_all_single"](wire(output), wire(input), output_split_sizes,
                                             input_split_sizes, group=group, async_op=async_op)

    def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
        if outside(group):
            return finish(async_op)
        send = torch.cat([t.reshape(-1) for t in input_tensor_list])
        received = torch.empty(sum(t.numel() for t in output_tensor_list), dtype=send.dtype)
        original["all_to_all_single"](wire(received), wire(send),
                                      [t.numel() for t in output_tensor_list],
                                      [t.numel() for t in input_tensor_list], group=group)
        offset = 0
        for tensor in output_tensor_list:
            tensor.copy_(received[offset:offset + tensor.numel()].view(tensor.shape))
            offset += tensor.numel()
        return finish(async_op)

    shims = {"all_reduce": all_reduce, "reduce": reduce, "reduce_scatter": reduce_scatter,
             "reduce_scatter_tensor": reduce_scatter_tensor,
             "_reduce_scatter_base": reduce_scatter_tensor,
             "all_gather_into_tensor": all_gather_into_tensor,
             "_all_gather_base": all_gather_into_tensor, "all_gather": all_gather,
             "broadcast": broadcast, "gather": gather, "scatter": scatter,
             "all_to_all_single": all_to_all_single, "all_to_all": all_to_all}
    for name, shim in shims.items():  # both, so `from torch.distributed import x` gets the shim
        setattr(dist, name, shim)
        setattr(c10d, name, shim)


if __name__ == "__main__":
    sys.path.insert(0, SCRIPTS_DIR)  # safetensors_io, beside this file
    try:
        sys.exit(main(sys.argv[1:]))
    except UsageError as err:
        print(f"parity: error: {err}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
