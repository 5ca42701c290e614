# How parity.py and its worker processes talk: the files of the run folder and the timeouts both
# sides count on. Markers and results go to NAME.tmp, then are renamed, so no reader sees half.
import json
import os

# The run folder, made by the parent:
#   jobs.json                     every job's worker spec, in job order
#   dumps_ready/INDEX             "ok" or "failed": `pkb reference` finished that job's dump
#   KEY_DTYPE/                    the dump: manifest.json, rankR/{inputs,outputs}.safetensors
#   epochE/                       one world of W workers: gloo's file store, readyR once rank R
#                                 joined the group, rankR.log with its stdout and stderr
#   results/INDEX/rankR.json      rank R's result for that job: rank, status, time, message

COLLECTIVE_TIMEOUT_S = 60  # gloo's timeout: a rank waiting this long on a peer raises
POLL_S = 0.01


def read_results(run_dir, index):
    folder = os.path.join(run_dir, "results", str(index))
    results = {}
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as file:
                result = json.load(file)
            results[result["rank"]] = result
    return results
