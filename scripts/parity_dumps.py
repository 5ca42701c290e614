# The C++ side of parity: every job's `pkb reference` dump, written by a few long-lived
# `pkb reference --batch` processes, so pkb's start (about 0.7 s of loading libtorch) is paid once
# per process rather than once per problem and dtype. A process that dies fails only the job it
# was on; a fresh one takes the rest.
import json
import os
import subprocess
import threading
import time

from parity_compare import one_line

PROCESSES = 2
STALL_S = 300  # no dump finished for this long: the process is killed, its current job fails


class BatchDumps:
    def __init__(self, args, jobs, run_dir):
        self.args, self.run_dir = args, run_dir
        self.lock = threading.Lock()
        self.finished = []  # jobs whose dump ended (pkb_done set), not yet taken
        self.procs = {}     # shard -> running process
        self.last_answer = {}
        self.threads = []
        for shard in range(PROCESSES):
            share = jobs[shard::PROCESSES]
            if share:
                thread = threading.Thread(target=self._run_shard, args=(shard, share), daemon=True)
                thread.start()
                self.threads.append(thread)

    def take_finished(self):
        """The jobs whose dumps ended since the last call; kills a process that stalls."""
        with self.lock:
            done, self.finished = self.finished, []
            for shard, proc in self.procs.items():
                if time.monotonic() - self.last_answer[shard] > STALL_S and proc.poll() is None:
                    proc.kill()
        return done

    def stop(self):
        with self.lock:
            for proc in self.procs.values():
                if proc.poll() is None:
                    proc.kill()

    def _finish(self, job, error):
        job.pkb_error, job.pkb_done = error, True
        with self.lock:
            self.finished.append(job)

    def _run_shard(self, shard, remaining):
        attempt = 0
        while remaining:
            batch_file = os.path.join(self.run_dir, f"batch_{shard}_{attempt}.jsonl")
            with open(batch_file, "w") as file:
                for job in remaining:
                    line = {"index": job.index, "problem": job.key, "world": self.args.world,
                            "dtype": job.dtype, "dims": "test", "dump": job.dump_dir}
                    if job.drawn >= 0:
                        line["drawn"] = job.drawn
                    file.write(json.dumps(line) + "\n")
            command = [self.args.pkb] + (["--problems-dir", self.args.problems_dir] if self.args.problems_dir else [])
            command += ["-q", "reference", "--batch", batch_file]
            stderr_path = batch_file + ".stderr"
            try:
                with open(stderr_path, "w") as stderr:
                    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True,
                                            errors="replace")
            except OSError as err:
                for job in remaining:
                    self._finish(job, f"cannot run {self.args.pkb}: {err}")
                return
            with self.lock:
                self.procs[shard], self.last_answer[shard] = proc, time.monotonic()
            by_index = {job.index: job for job in remaining}
            for line in proc.stdout:
                try:
                    answer = json.loads(line)
                    job = by_index.pop(answer["index"])
                except (ValueError, KeyError):
                    continue  # not an answer line
                with self.lock:
                    self.last_answer[shard] = time.monotonic()
                self._finish(job, None if answer.get("ok") else f"pkb reference: {one_line(answer.get('error', ''))}")
            code = proc.wait()
            remaining = [job for job in remaining if job.index in by_index]
            if remaining:  # the process died on remaining[0]: it fails, the others go on
                with open(stderr_path) as file:
                    tail = one_line(file.read()[-2000:])
                self._finish(remaining[0], f"pkb reference exited with code {code} on this job: {tail}")
                remaining = remaining[1:]
            attempt += 1
