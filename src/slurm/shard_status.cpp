// A shard's state comes from its files: run.json appears when it starts, `finished` when it ends,
// and its lock is held exactly while a pkb process writes it.
#include "src/slurm/shard_status.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "src/common/error.h"
#include "src/shard/shard.h"
#include "src/results/samples_file.h"
#include "src/results/run_info.h"

namespace pkb::slurm {
namespace fs = std::filesystem;
namespace {

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return nlohmann::json();
  std::stringstream text;
  text << in.rdbuf();
  const auto doc = nlohmann::json::parse(text.str(), nullptr, false);
  return doc.is_discarded() ? nlohmann::json() : doc;
}

// Held by a live writer; probing takes the lock for an instant only when nobody holds it.
bool locked(const fs::path& dir) {
  const int fd = ::open((dir / ".lock").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0;
  ::close(fd);
  return held;
}

std::string last_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

ShardProgress read_shard(const fs::path& results, int index, int count) {
  ShardProgress shard;
  shard.index = index;
  const fs::path dir = results / ("shard-" + std::to_string(index));
  const std::optional<results::RunInfo> run = results::read_run_info_if_any(dir);
  if (!run) {
    shard.state = "pending";
    return shard;
  }
  std::vector<std::string> problems;
  for (const auto& problem : run->problems) problems.push_back(problem.key);
  shard.samples_total = static_cast<int>(
      shard::select_shard(shard::work_list(problems, run->samples_per_problem), {index, count}).size());
  // A shard still running may end in a torn line: read_records leaves it out.
  for (const auto& line : results::read_records(dir / "samples.jsonl", (dir / "samples.jsonl").string()).lines) {
    ++shard.samples_done;
    ++shard.statuses[line.record.status];
  }
  if (locked(dir)) shard.state = "running";
  else if (!run->finished) shard.state = "stopped";
  else if (run->cancelled) shard.state = "cancelled";
  else shard.state = "done";
  if (shard.state == "stopped" || shard.state == "cancelled")
    shard.last_output = last_line(results / "slurm" / ("shard-" + std::to_string(index) + ".out"));
  return shard;
}

}  // namespace

JobProgress read_progress(const fs::path& results) {
  JobProgress job;
  const nlohmann::json jobs = read_json(results / "slurm" / "jobs.json");
  if (jobs.is_object()) {
    job.shards = jobs.value("nodes", 0);
    job.array_job = jobs.value("array_job", "");
    job.merge_job = jobs.value("merge_job", "");
  }
  if (job.shards == 0)
    while (fs::exists(results / ("shard-" + std::to_string(job.shards)))) ++job.shards;
  if (job.shards == 0)
    throw UsageError(results.string() + ": no shards (shard-0, ...) and no slurm/jobs.json: not a "
                     "directory pkb slurm submit wrote");
  for (int index = 0; index < job.shards; ++index) job.progress.push_back(read_shard(results, index, job.shards));
  const std::optional<results::RunInfo> merged = results::read_run_info_if_any(results);
  job.merged = merged && merged->kind == "merged";
  if (job.merged)
    job.merged_samples = merged->doc.value("summary", nlohmann::json::object()).value("total", 0);
  return job;
}

std::string progress_table(const fs::path& results, const JobProgress& job) {
  std::string text = "# pkb slurm status " + results.string() + ": " + std::to_string(job.shards) + " shards";
  if (!job.array_job.empty()) text += ", array job " + job.array_job + ", merge job " + job.merge_job;
  text += "\n";
  char row[160];
  std::snprintf(row, sizeof row, "%-7s %-10s %9s  %s\n", "shard", "state", "samples", "statuses");
  text += row;
  int done = 0;
  for (const auto& shard : job.progress) {
    std::string statuses;
    for (const auto& [status, count] : shard.statuses)
      statuses += (statuses.empty() ? "" : ", ") + status + " " + std::to_string(count);
    if (!shard.last_output.empty()) statuses += (statuses.empty() ? "" : "; ") + ("last output: " + shard.last_output);
    const std::string label = std::to_string(shard.index) + "/" + std::to_string(job.shards);
    const std::string samples = std::to_string(shard.samples_done) + "/" + std::to_string(shard.samples_total);
    std::snprintf(row, sizeof row, "%-7s %-10s %9s  ", label.c_str(), shard.state.c_str(), samples.c_str());
    text += row + statuses + "\n";
    done += shard.state == "done";
  }
  if (job.merged)
    text += "merged: " + std::to_string(job.merged_samples) + " samples in " + results.string() + " (pkb score " +
            results.string() + ")\n";
  else
    text += std::to_string(done) + " of " + std::to_string(job.shards) + " shards done; not merged yet" +
            (done == job.shards ? " (the merge job runs next, or: pkb merge " + results.string() + " " +
                                      results.string() + "/shard-*)\n"
                                : "\n");
  return text;
}

}  // namespace pkb::slurm
