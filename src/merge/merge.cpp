// The merge: read and check every shard first, then write OUT with run.json last, so a merge
// killed half way leaves a directory no reader takes for a run.
#include "src/merge/merge.h"

#include <unistd.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <tuple>

#include "src/common/error.h"
#include "src/results/durable_file.h"
#include "src/results/run_file.h"
#include "src/results/samples_file.h"
#include "src/results/run_lock.h"
#include "src/merge/merge_check.h"
#include "src/merge/merge_files.h"
#include "src/merge/shard_dir.h"

namespace pkb::merge {
namespace fs = std::filesystem;
namespace {

void check_out(const MergeRequest& request) {
  if (request.dirs.empty()) throw UsageError("pkb merge: name at least one shard directory after OUT");
  const std::string name = request.out.string();
  for (const auto& dir : request.dirs)
    if (fs::exists(request.out) && fs::exists(dir) && fs::equivalent(dir, request.out))
      throw UsageError(name + ": OUT is also a shard directory; merge into a new directory");
  if (!fs::exists(request.out)) return;
  if (!fs::is_directory(request.out)) throw UsageError(name + ": not a directory");
  // OUT may hold the shards themselves (RESULTS/shard-I) and their Slurm files, not a run.
  for (const char* entry : {"run.json", "samples.jsonl", "generate.jsonl", "solutions", "responses", "logs"})
    if (fs::exists(request.out / entry))
      throw UsageError(name + ": already holds " + entry + "; merge into a new directory, or the "
                       "folder that holds only the shards");
}

// A shard a pkb process still writes is not finished; its lock says so. Read-only shard folders
// (a finished run copied off the cluster) cannot be written by anyone and need no lock.
std::vector<std::unique_ptr<results::RunLock>> lock_inputs(const std::vector<fs::path>& dirs) {
  std::vector<std::unique_ptr<results::RunLock>> locks;
  for (const auto& dir : dirs) {
    if (!fs::is_directory(dir) || ::access(dir.c_str(), W_OK) != 0) continue;
    try {
      locks.push_back(std::make_unique<results::RunLock>(dir));
    } catch (const UsageError&) {
      throw UsageError(dir.string() + ": a pkb process is still writing there (a shard not finished); "
                       "wait for it, then merge");
    }
  }
  return locks;
}

std::vector<const RawRecord*> sorted_records(const std::vector<ShardDir>& shards) {
  std::vector<const RawRecord*> records;
  for (const auto& shard : shards)
    for (const auto& record : shard.records) records.push_back(&record);
  std::sort(records.begin(), records.end(), [](const RawRecord* a, const RawRecord* b) {
    return std::tie(a->problem, a->sample, a->turn) < std::tie(b->problem, b->sample, b->turn);
  });
  return records;
}

// generate.jsonl of shards that `pkb evaluate` wrote (their generation source), sorted likewise.
void merge_generation_sources(const std::vector<ShardDir>& shards, const fs::path& out) {
  std::vector<std::tuple<std::string, int, int, std::string>> lines;
  for (const auto& shard : shards) {
    const fs::path source = shard.dir / "generate.jsonl";
    if (!fs::exists(source)) continue;
    for (auto& line : results::read_records(source, shard.name + "/generate.jsonl").lines)
      lines.emplace_back(line.record.problem, line.record.sample, line.record.turn,
                         std::move(line.text));
  }
  if (lines.empty()) return;
  std::sort(lines.begin(), lines.end());
  std::string text;
  for (const auto& line : lines) text += std::get<3>(line) + "\n";
  results::write_samples_file(out / "generate.jsonl", text);
}

nlohmann::json merged_run_json(const std::vector<ShardDir>& shards, const MergeRequest& request,
                               const results::RecordsSummary& summary) {
  nlohmann::json doc = shards.front().run.doc;
  for (const char* name : {"shard", "resumed_samples", "evaluated_from"}) doc.erase(name);
  doc["kind"] = "merged";
  doc["merged_kind"] = shards.front().run.kind;
  doc["command"] = request.command;
  nlohmann::json list = nlohmann::json::array();
  std::string started, finished;
  for (const auto& shard : shards) {
    const nlohmann::json& run = shard.run.doc;
    const std::string shard_started = run.value("started", ""), shard_finished = run.value("finished", "");
    if (!shard_started.empty() && (started.empty() || shard_started < started)) started = shard_started;
    if (shard_finished > finished) finished = shard_finished;
    list.push_back({{"dir", shard.name},
                    {"shard", run.value("shard", nlohmann::json())},
                    {"command", run.value("command", nlohmann::json())},
                    {"started", run.value("started", nlohmann::json())},
                    {"finished", run.value("finished", nlohmann::json())},
                    {"samples", shard.records.size()},
                    {"environment", run.value("environment", nlohmann::json())}});
  }
  doc["shards"] = list;
  doc["started"] = started;
  doc["finished"] = finished;
  doc["merged"] = results::utc_now_iso();
  doc["summary"] = results::to_json(summary);
  return doc;
}

}  // namespace

MergeResult merge_shards(const MergeRequest& request) {
  check_out(request);
  const auto input_locks = lock_inputs(request.dirs);
  std::vector<ShardDir> shards;
  for (const auto& dir : request.dirs) shards.push_back(read_shard_dir(dir));
  check_same_settings(shards);
  check_no_duplicates(shards);
  check_complete(shards);

  std::error_code error;
  fs::create_directories(request.out, error);
  if (error) throw UsageError(request.out.string() + ": cannot create: " + error.message());
  results::RunLock out_lock(request.out);
  MergeResult result;
  for (const auto& shard : shards)
    for (const char* folder : {"solutions", "responses", "logs"})
      result.files += copy_tree(shard.dir / folder, request.out / folder);
  merge_generation_sources(shards, request.out);
  const auto records = sorted_records(shards);
  std::string text;
  for (const RawRecord* record : records) text += record->text + "\n";
  results::write_samples_file(request.out / "samples.jsonl", text);
  result.samples = static_cast<int>(records.size());
  result.summary = results::summarize_records(request.out / "samples.jsonl");
  const nlohmann::json doc = merged_run_json(shards, request, result.summary);
  results::write_run_file(request.out, doc);
  return result;
}

}  // namespace pkb::merge
