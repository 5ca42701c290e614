// sbatch --parsable prints "JOBID" or "JOBID;CLUSTER"; anything else is sbatch refusing.
#include "src/slurm/submit.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/common/subprocess.h"
#include "src/results/durable_file.h"

namespace pkb::slurm {
namespace fs = std::filesystem;
namespace {

// sbatch answers in seconds; a controller that does not is down, and waiting longer helps nobody.
constexpr double kSbatchTimeoutS = 60;

std::string sbatch(const std::vector<std::string>& argv) {
  const ProcessResult result = run_process(argv, "", kSbatchTimeoutS);
  std::string id = result.out.substr(0, result.out.find_first_of(";\n"));
  if (result.exit_code != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    std::string why = result.timed_out ? "no answer in 60 s" : result.err.empty() ? result.out : result.err;
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    throw Error("sbatch " + argv.back() + ": " + why);
  }
  return id;
}

}  // namespace

Submission submit(const SlurmJob& job) {
  const std::string sbatch_path = find_program("sbatch");
  if (sbatch_path.empty())
    throw UsageError("pkb slurm submit: sbatch not found on PATH (run it on a Slurm login node, or "
                     "use --dry-run to see the script)");
  const PkbCommand command = parse_pkb_args(job.args);
  const fs::path results = fs::path(job.workdir) / command.results;
  for (int index = 0; index < job.nodes; ++index)
    if (fs::exists(results / ("shard-" + std::to_string(index)) / "run.json"))
      throw UsageError("--out " + command.results + ": already holds shard-" + std::to_string(index) +
                       "; choose a new directory (or see pkb slurm status " + command.results + ")");
  const fs::path folder = results / "slurm";
  fs::create_directories(folder);
  results::write_file_atomic(folder / "array.sbatch", array_script(job), false);
  results::write_file_atomic(folder / "merge.sbatch", merge_script(job), false);

  Submission submission;
  submission.folder = folder.string();
  submission.array_job = sbatch({sbatch_path, "--parsable", (folder / "array.sbatch").string()});
  submission.merge_job = sbatch({sbatch_path, "--parsable", "--dependency=afterok:" + submission.array_job,
                                 "--kill-on-invalid-dep=yes", (folder / "merge.sbatch").string()});
  const nlohmann::json record = {{"schema_version", 1},
                                 {"nodes", job.nodes},
                                 {"array_job", submission.array_job},
                                 {"merge_job", submission.merge_job},
                                 {"command", job.args}};
  results::write_file_atomic(folder / "jobs.json", record.dump(2) + "\n");
  return submission;
}

}  // namespace pkb::slurm
