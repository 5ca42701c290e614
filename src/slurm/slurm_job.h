// What `pkb slurm submit` turns into: the sbatch array script (one task per shard) and the merge
// script that a dependent job runs once every task succeeded (docs/SCALE.md).
#pragma once

#include <string>
#include <vector>

namespace pkb::slurm {

struct SlurmJob {
  int nodes = 1;             // N: array tasks, shards and nodes
  std::string partition;     // "" = the cluster's default
  int gpus_per_node = 0;     // 0 = ask for none (the partition's nodes come whole: --exclusive)
  std::string time;          // sbatch --time, "" = the partition's limit
  std::string pkb;           // absolute path of the pkb binary the nodes run
  std::string problems_dir;  // --problems-dir for the tasks, "" = pkb's default
  std::string workdir;       // absolute: the tasks run there, relative paths resolve there
  std::vector<std::string> args;  // "run --model ... --out RESULTS" (or evaluate/generate)
};

/// The subcommand (run, evaluate or generate) and the results directory RESULTS (--out) of
/// `job.args`. Throws pkb::UsageError naming what is missing.
struct PkbCommand {
  std::string subcommand;
  std::string results;
  std::size_t out_value = 0;  // index in args of RESULTS (or of --out=RESULTS)
  bool out_inline = false;    // written as --out=RESULTS
};
PkbCommand parse_pkb_args(const std::vector<std::string>& args);

/// The array script: #SBATCH lines, then one `exec pkb ... --shard $SLURM_ARRAY_TASK_ID/N --out
/// RESULTS/shard-$SLURM_ARRAY_TASK_ID`. Task output goes to RESULTS/slurm/shard-<task>.out.
std::string array_script(const SlurmJob& job);

/// The merge script: `pkb merge RESULTS RESULTS/shard-0 ... RESULTS/shard-(N-1)`, output in
/// RESULTS/slurm/merge.out.
std::string merge_script(const SlurmJob& job);

/// `text` quoted for bash when it needs it ('...' with ' escaped).
std::string shell_quote(const std::string& text);

}  // namespace pkb::slurm
