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

}  // namespace pkb::merge
