// Scripts a person can read and resubmit by hand: one flag per #SBATCH line, the pkb command on
// one line, every value quoted for bash.
#include "src/slurm/slurm_job.h"

#include <algorithm>

#include "src/common/error.h"

namespace pkb::slurm {
namespace {

// The flags a shard task sets itself; given after `--` they would fight the split.
constexpr const char* kOwnFlags[] = {"--shard", "--resume"};

std::string sbatch_common(const SlurmJob& job, const std::string& name) {
  std::string text = "#SBATCH --job-name=" + name + "\n";
  if (!job.partition.empty()) text += "#SBATCH --partition=" + job.partition + "\n";
  if (!job.time.empty()) text += "#SBATCH --time=" + job.time + "\n";
  text += "#SBATCH --chdir=" + job.workdir + "\n";
  return text;
}

std::string pkb_prefix(const SlurmJob& job) {
  std::string text = shell_quote(job.pkb);
  if (!job.problems_dir.empty()) text += " --problems-dir " + shell_quote(job.problems_dir);
  return text;
}

}  // namespace

std::string shell_quote(const std::string& text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string("/._-:=,+@%").find(c) != std::string::npos;
  });
  if (plain) return text;
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

PkbCommand parse_pkb_args(const std::vector<std::string>& args) {
  if (args.empty())
    throw UsageError(
        "pkb slurm submit: give the pkb command after --, e.g. -- run --model M --out DIR");
  PkbCommand command;
  command.subcommand = args.front();
  if (command.subcommand != "run" && command.subcommand != "evaluate" &&
      command.subcommand != "generate")
    throw UsageError("pkb slurm submit -- " + command.subcommand +
                     ": expected run, evaluate or generate after --");
  for (std::size_t index = 1; index < args.size(); ++index) {
    for (const char* flag : kOwnFlags)
      if (args[index] == flag || args[index].rfind(std::string(flag) + "=", 0) == 0)
        throw UsageError("pkb slurm submit -- ... " + std::string(flag) +
                         ": each array task sets it; leave it out");
    if (args[index] == "--out" && index + 1 < args.size()) {
      command.results = args[index + 1];
      command.out_value = index + 1;
      command.out_inline = false;
    } else if (args[index].rfind("--out=", 0) == 0) {
      command.results = args[index].substr(6);
      command.out_value = index;
      command.out_inline = true;
    }
  }
  if (command.results.empty())
    throw UsageError("pkb slurm submit -- " + command.subcommand +
                     ": name the results directory with --out DIR (the shards go to DIR/shard-I)");
  return command;
}

std::string array_script(const SlurmJob& job) {
  const PkbCommand command = parse_pkb_args(job.args);
  const std::string count = std::to_string(job.nodes);
  std::string text = "#!/bin/bash\n";
  text += "# pkb " + command.subcommand + " in " + count +
          " shards, one array task per node; written by\n";
  text +=
      "# `pkb slurm submit` (docs/SCALE.md). Task I writes " + command.results + "/shard-I; the\n";
  text += "# merge job (merge.sbatch) runs after every task succeeded.\n";
  text += sbatch_common(job, "pkb-" + command.subcommand);
  text += "#SBATCH --array=0-" + std::to_string(job.nodes - 1) + "\n";
  text += "#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --exclusive\n";
  if (job.gpus_per_node > 0)
    text += "#SBATCH --gpus-per-node=" + std::to_string(job.gpus_per_node) + "\n";
  text += "#SBATCH --output=" + command.results + "/slurm/shard-%a.out\n";
  text += "set -euo pipefail\n";
  text += "shard=${SLURM_ARRAY_TASK_ID:?run this script with sbatch}\n";
  text += "echo \"pkb: shard $shard/" + count + " on $(hostname) at $(date -u +%FT%TZ)\"\n";
  std::string line = "exec " + pkb_prefix(job);
  for (std::size_t index = 0; index < job.args.size(); ++index)
    line +=
        " " + (index == command.out_value ? (command.out_inline ? "--out=" : "") +
                                                shell_quote(command.results) + "/shard-\"$shard\""
                                          : shell_quote(job.args[index]));
  line += " --shard \"$shard/" + count + "\"";
  // A requeued task (node failure) continues its own shard instead of refusing a used --out;
  // `pkb evaluate` continues by itself.
  if (command.subcommand != "evaluate") line += " --resume";
  return text + line + "\n";
}

std::string merge_script(const SlurmJob& job) {
  const PkbCommand command = parse_pkb_args(job.args);
  std::string text = "#!/bin/bash\n";
  text += "# Merges the " + std::to_string(job.nodes) + " shards of " + command.results +
          " into it once every array task succeeded (sbatch --dependency=afterok).\n";
  text += sbatch_common(job, "pkb-merge");
  text += "#SBATCH --nodes=1\n#SBATCH --ntasks=1\n";
  text += "#SBATCH --output=" + command.results + "/slurm/merge.out\n";
  text += "set -euo pipefail\n";
  text += "exec " + pkb_prefix(job) + " merge " + shell_quote(command.results);
  for (int index = 0; index < job.nodes; ++index)
    text += " \\\n  " + shell_quote(command.results) + "/shard-" + std::to_string(index);
  return text + "\n";
}

}  // namespace pkb::slurm
