// Submitting a SlurmJob: the scripts go to RESULTS/slurm/ (kept, so the job can be read and
// resubmitted by hand), the array with sbatch, then the merge job with --dependency=afterok.
#pragma once

#include <string>

#include "src/slurm/slurm_job.h"

namespace pkb::slurm {

struct Submission {
  std::string array_job;  // Slurm job ids
  std::string merge_job;
  std::string folder;     // RESULTS/slurm
};

/// Throws pkb::UsageError when sbatch is not on PATH or RESULTS already holds shards, pkb::Error
/// with sbatch's own message when it refuses a script.
Submission submit(const SlurmJob& job);

}  // namespace pkb::slurm
