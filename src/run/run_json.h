// run.json of `pkb run` and `pkb evaluate` (docs/RESULTS.md): written at the start, rewritten
// atomically at the end with `finished` and `summary`; never appended.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/problem/spec.h"

namespace pkb::run {

/// What both commands record about where they ran (from environment.h).
struct RunContext {
  nlohmann::json environment;
  std::string hardware_key;
  nlohmann::json problem_set;  // {count, sha256}
};

/// `base` (command, model, ...) plus schema_version 2, kind, versions, the start time, the
/// context, and `problems` [{key, id, category, world, dtype, ...}].
nlohmann::json run_json(nlohmann::json base, const std::string& kind, const RunContext& context,
                        const std::string& started);

/// {total (records: one per turn), samples, by_status (of records), input_tokens, output_tokens}
/// over every record in DIR/samples.jsonl (an earlier process's too).
nlohmann::json summary_json(const std::filesystem::path& samples_path);

}  // namespace pkb::run
