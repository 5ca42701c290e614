# The parent's side of one parity world: starts W parity_worker.py processes, watches them exit,
# kills them, and says why a rank gave no result.
import os
import subprocess
import sys
import time

from parity_protocol import POLL_S

# Run as a script, so the worker finds its modules through sys.path[0], this folder.
WORKER_PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "parity_worker.py")


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
                    [sys.executable, WORKER_PY, "--rank", str(rank), "--world", str(args.world),
                     "--run-dir", run_dir, "--epoch", str(epoch), "--first-job", str(first_job)],
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
