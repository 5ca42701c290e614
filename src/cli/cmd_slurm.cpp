// `pkb slurm submit --nodes N [--partition P] [--gpus-per-node G] [--time T] [--dry-run] -- run
// ... --out RESULTS`: an sbatch array of N shards plus a dependent merge job; prints the array's
// job id. `pkb slurm status RESULTS`: per-shard progress from the shard directories (src/slurm).
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "src/cli/command.h"
#include "src/common/error.h"
#include "src/slurm/shard_status.h"
#include "src/slurm/submit.h"

namespace pkb::cli {
namespace {

// The binary the nodes run: this one, by absolute path (clusters share the filesystem).
std::string own_binary() {
  std::error_code error;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string("pkb") : path.string();
}

void setup_submit(CLI::App& app, const GlobalOptions& global, std::function<int()>& run) {
  auto job = std::make_shared<slurm::SlurmJob>();
  auto dry_run = std::make_shared<bool>(false);
  auto* submit = app.add_subcommand("submit", "Submit an sbatch array of N shards of a pkb command, and a merge job after it");
  submit->add_option("--nodes", job->nodes, "Shards N, one array task (one whole node) each")->required();
  submit->add_option("--partition", job->partition, "Slurm partition P (default: the cluster's)");
  submit->add_option("--gpus-per-node", job->gpus_per_node, "GPUs G to ask for per node (default: none asked)");
  submit->add_option("--time", job->time, "Time limit T per task, as sbatch --time (default: the partition's)");
  submit->add_flag("--dry-run", *dry_run, "Print the scripts instead of submitting them");
  submit->add_option("args", job->args, "-- then the pkb command: run|evaluate|generate ... --out RESULTS")->required();
  submit->callback([&run, &global, job, dry_run] {
    run = [&global, job, dry_run] {
      if (job->nodes < 1) throw UsageError("--nodes " + std::to_string(job->nodes) + ": expected at least 1");
      if (job->gpus_per_node < 0)
        throw UsageError("--gpus-per-node " + std::to_string(job->gpus_per_node) + ": expected 0 or more");
      job->pkb = own_binary();
      job->problems_dir = global.problems_dir.empty() ? "" : std::filesystem::absolute(global.problems_dir).string();
      job->workdir = std::filesystem::current_path().string();
      if (*dry_run) {
        std::fputs(slurm::array_script(*job).c_str(), stdout);
        std::fputs("\n# merge.sbatch, submitted with --dependency=afterok:<array job>\n", stdout);
        std::fputs(slurm::merge_script(*job).c_str(), stdout);
        return 0;
      }
      const slurm::Submission submission = slurm::submit(*job);
      std::printf("%s\n", submission.array_job.c_str());
      spdlog::info("slurm: array job {} ({} shards), merge job {} after it; scripts and task output in {}",
                   submission.array_job, job->nodes, submission.merge_job, submission.folder);
      return 0;
    };
  });
}

void setup_status(CLI::App& app, std::function<int()>& run) {
  auto results = std::make_shared<std::string>();
  auto* status = app.add_subcommand("status", "Per-shard progress of a job pkb slurm submit started");
  status->add_option("results", *results, "The results directory RESULTS (the --out of the submitted command)")->required();
  status->callback([&run, results] {
    run = [results] {
      const auto job = slurm::read_progress(*results);
      std::fputs(slurm::progress_table(*results, job).c_str(), stdout);
      return 0;
    };
  });
}

}  // namespace

std::function<int()> setup_slurm(CLI::App& app, const GlobalOptions& global) {
  auto run = std::make_shared<std::function<int()>>();
  app.require_subcommand(1);
  setup_submit(app, global, *run);
  setup_status(app, *run);
  return [run] { return (*run)(); };
}

}  // namespace pkb::cli
