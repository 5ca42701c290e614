// `pkb slurm status RESULTS`: how far each shard of a submitted job is, read from the shard
// directories themselves (never from squeue: the directories are the truth, and they outlive the
// job).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace pkb::slurm {

struct ShardProgress {
  int index = 0;
  std::string state;      // pending (no run.json yet), running (locked), stopped, cancelled, done
  int samples_done = 0;   // records in samples.jsonl
  int samples_total = 0;  // the shard's share of problems x samples (0 until run.json exists)
  std::map<std::string, int> statuses;
  std::string last_output;  // the last line of RESULTS/slurm/shard-I.out, for a stopped shard
};

struct JobProgress {
  int shards = 0;
  std::string array_job, merge_job;  // from RESULTS/slurm/jobs.json, "" when absent
  std::vector<ShardProgress> progress;
  bool merged = false;  // RESULTS/run.json has kind merged
  int merged_samples = 0;
};

/// Throws pkb::UsageError when `results` holds neither shards nor a slurm/jobs.json.
JobProgress read_progress(const std::filesystem::path& results);

/// The table of docs/STYLE.md, "Output": '#' lines, one row per shard, a verdict line.
std::string progress_table(const std::filesystem::path& results, const JobProgress& job);

}  // namespace pkb::slurm
