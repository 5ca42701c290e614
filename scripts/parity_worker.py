# One rank of a parity world: joins the gloo group, then runs reference.py on each job's dump and
# writes its result. Started by parity.py (parity_world.py), never by hand.
import argparse
import ctypes
import datetime
import importlib.util
import json
import os
import signal
import sys
import time

from parity_compare import check_outputs, describe_exception, same_bits
from parity_expr import eval_expr
from parity_protocol import COLLECTIVE_TIMEOUT_S, POLL_S, read_results
from parity_shims import install_shims

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


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


def parse_args(argv):
    parser = argparse.ArgumentParser(description="One rank of a parity world (from parity.py).")
    for name in ("--rank", "--world", "--epoch", "--first-job"):
        parser.add_argument(name, type=int, required=True)
    parser.add_argument("--run-dir", required=True)
    return parser.parse_args(argv)


if __name__ == "__main__":
    try:
        args = parse_args(sys.argv[1:])
        sys.exit(worker_main(args.rank, args.world, args.run_dir, args.epoch, args.first_job))
    except KeyboardInterrupt:
        sys.exit(130)
