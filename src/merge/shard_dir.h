// One input of `pkb merge`: a shard's results directory read back with every samples.jsonl line
// kept verbatim, so the merged file holds exactly the bytes the shards wrote.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "src/results/run_info.h"

namespace pkb::merge {

struct RawRecord {
  std::string problem;
  int sample = 0;
  int turn = 0;
  std::string text;   // the line as written, without its newline
  std::string where;  // "DIR/samples.jsonl:LINE"
};

struct ShardDir {
  std::filesystem::path dir;
  std::string name;  // as given on the command line, for messages
  results::RunInfo run;
  std::vector<RawRecord> records;
  int torn_lines = 0;  // a last line cut by a killed writer: that sample counts as missing
};

/// Reads and validates `dir` with src/results (the rules `pkb score` applies). Throws
/// pkb::InputError naming the file (and line) for a missing run.json, a corrupt or duplicate
/// record, or a newer schema.
ShardDir read_shard_dir(const std::filesystem::path& dir);

}  // namespace pkb::merge
