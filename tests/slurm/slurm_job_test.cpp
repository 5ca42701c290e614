// The sbatch scripts of `pkb slurm submit`: one array task per shard with its own --shard and
// --out, --exclusive nodes, task output under the results directory, and a merge of every shard.
#include "src/slurm/slurm_job.h"

#include <gtest/gtest.h>

#include "src/common/error.h"

namespace pkb::slurm {
namespace {

SlurmJob job_of(std::vector<std::string> args) {
  SlurmJob job;
  job.nodes = 3;
  job.pkb = "/opt/pkb/pkb";
  job.workdir = "/scratch/me";
  job.args = std::move(args);
  return job;
}

TEST(SlurmJob, ArrayScriptRunsOneShardPerTask) {
  SlurmJob job =
      job_of({"run", "--model", "replay:examples/replay", "--samples", "2", "--out", "results/x"});
  job.partition = "h100";
  job.gpus_per_node = 8;
  job.time = "02:00:00";
  const std::string script = array_script(job);
  for (const char* line :
       {"#!/bin/bash\n", "#SBATCH --array=0-2\n", "#SBATCH --exclusive\n", "#SBATCH --nodes=1\n",
        "#SBATCH --partition=h100\n", "#SBATCH --gpus-per-node=8\n", "#SBATCH --time=02:00:00\n",
        "#SBATCH --chdir=/scratch/me\n", "#SBATCH --output=results/x/slurm/shard-%a.out\n"})
    EXPECT_NE(script.find(line), std::string::npos) << line << "\n" << script;
  EXPECT_NE(script.find("exec /opt/pkb/pkb run --model replay:examples/replay --samples 2 --out "
                        "results/x/shard-\"$shard\" --shard \"$shard/3\" --resume\n"),
            std::string::npos)
      << script;
}

TEST(SlurmJob, TakesTheResultsDirectoryFromOutEqualsToo) {
  const SlurmJob job = job_of({"run", "--out=results/y", "--turns", "3"});
  const std::string script = array_script(job);
  EXPECT_NE(script.find("exec /opt/pkb/pkb run --out=results/y/shard-\"$shard\" --turns 3 --shard "
                        "\"$shard/3\" --resume\n"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("#SBATCH --output=results/y/slurm/shard-%a.out\n"), std::string::npos);
  EXPECT_NE(merge_script(job).find("merge results/y \\\n  results/y/shard-0"), std::string::npos)
      << merge_script(job);
}

TEST(SlurmJob, LeavesOutWhatWasNotAskedFor) {
  const std::string script = array_script(job_of({"run", "--out", "r"}));
  for (const char* flag : {"--partition", "--gpus-per-node", "--time"})
    EXPECT_EQ(script.find(flag), std::string::npos) << flag;
}

TEST(SlurmJob, EvaluateTasksContinueWithoutResume) {
  const std::string script = array_script(job_of({"evaluate", "gen/dir", "--out", "r"}));
  EXPECT_NE(script.find(" evaluate gen/dir --out r/shard-\"$shard\" --shard \"$shard/3\"\n"),
            std::string::npos)
      << script;
}

TEST(SlurmJob, MergeScriptNamesEveryShard) {
  SlurmJob job = job_of({"run", "--out", "results/my run"});
  job.problems_dir = "/src/pkb/problems";
  const std::string script = merge_script(job);
  EXPECT_NE(
      script.find("exec /opt/pkb/pkb --problems-dir /src/pkb/problems merge 'results/my run' \\\n"
                  "  'results/my run'/shard-0 \\\n  'results/my run'/shard-1 \\\n"
                  "  'results/my run'/shard-2\n"),
      std::string::npos)
      << script;
  EXPECT_NE(script.find("#SBATCH --output=results/my run/slurm/merge.out\n"), std::string::npos);
}

TEST(SlurmJob, QuotesForBash) {
  EXPECT_EQ(shell_quote("results/a-b_1.2"), "results/a-b_1.2");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("$HOME"), "'$HOME'");
}

TEST(SlurmJob, RefusesCommandsItCannotSplit) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{}, "pkb slurm submit: give the pkb command after --, e.g. -- run --model M --out DIR"},
      {{"score", "x"}, "pkb slurm submit -- score: expected run, evaluate or generate after --"},
      {{"run", "--model", "m"},
       "pkb slurm submit -- run: name the results directory with --out DIR (the shards go to "
       "DIR/shard-I)"},
      {{"run", "--out", "r", "--shard", "0/2"},
       "pkb slurm submit -- ... --shard: each array task sets it; leave it out"},
  };
  for (const auto& [args, message] : cases) {
    try {
      parse_pkb_args(args);
      ADD_FAILURE() << message;
    } catch (const UsageError& error) {
      EXPECT_EQ(std::string(error.what()), message);
    }
  }
}

}  // namespace
}  // namespace pkb::slurm
