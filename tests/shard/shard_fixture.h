// What the merge tests share: one real `pkb run --model replay:examples/replay` and shard
// directories cut from it by the --shard rule, as N `pkb run --shard I/N` would have written them.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pkb::test {

/// The unsharded run (made once per test process), --samples 4 --dims test.
const std::string& whole_run();

/// Copies of the whole run's directory, one per shard of `count`, under a fresh folder: run.json
/// with "shard": {index, count}, the shard's samples.jsonl lines, and its solutions and logs.
std::vector<std::string> cut_shards(int count);

std::string read_text(const std::string& path);
void write_text(const std::string& path, const std::string& text);
nlohmann::json read_json(const std::string& path);

}  // namespace pkb::test
