// Reading a shard: src/results validates each record and keeps its line as written.
#include "src/merge/shard_dir.h"

#include "src/common/error.h"
#include "src/results/results_dir.h"

namespace pkb::merge {
namespace fs = std::filesystem;

ShardDir read_shard_dir(const fs::path& dir) {
  ShardDir shard;
  shard.dir = dir;
  shard.name = dir.string();
  if (!fs::is_directory(dir)) throw InputError(shard.name + ": no such directory");
  if (!fs::exists(dir / "run.json"))
    throw InputError(shard.name + ": no run.json (a shard that never started?)");
  results::ResultsDir loaded = results::load_results_dir(dir);
  shard.run = std::move(loaded.run);
  shard.torn_lines = static_cast<int>(loaded.skipped.size());

  for (const auto& record : loaded.samples)
    shard.records.push_back({record.problem, record.sample, record.turn, record.text,
                             shard.name + "/samples.jsonl:" + std::to_string(record.line)});
  return shard;
}

std::string shard_label(const ShardDir& dir) {
  const auto it = dir.run.find("shard");
  if (it == dir.run.end() || !it->is_object()) return "";
  return std::to_string(it->value("index", -1)) + "/" + std::to_string(it->value("count", 0));
}

int samples_per_problem(const ShardDir& dir) {
  const auto fingerprint = dir.run.value("fingerprint", nlohmann::json::object());
  if (fingerprint.contains("samples") && fingerprint["samples"].is_number_integer())
    return fingerprint["samples"].get<int>();
  return dir.run.value("samples_per_problem", 0);
}

}  // namespace pkb::merge
