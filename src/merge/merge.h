// `pkb merge OUT DIR...` without the command line: shard results directories of one run's settings
// become one results directory that `pkb score` and `pkb leaderboard` read as a single run.
//
// OUT gets solutions/, responses/ and logs/ of every shard, samples.jsonl sorted by (problem,
// sample, turn) with each shard's lines as written, generate.jsonl likewise when the shards were
// evaluated from a generation, and run.json (written last) with kind "merged", the shards' kind
// as merged_kind, the list of shard directories and a summary over the merged samples.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "src/results/records_summary.h"

namespace pkb::merge {

struct MergeRequest {
  std::filesystem::path out;
  std::vector<std::filesystem::path> dirs;
  std::string command;  // for run.json
};

struct MergeResult {
  int samples = 0;  // records in the merged samples.jsonl
  int files = 0;    // files copied
  results::RecordsSummary summary;  // run.json's, over the merged samples.jsonl
};

/// Checks everything (merge_check.h) before writing anything. Throws pkb::UsageError for an OUT
/// that holds a run (it may hold the shards) or a shard still being written, pkb::InputError for
/// shards that do not make one run.
MergeResult merge_shards(const MergeRequest& request);

}  // namespace pkb::merge
