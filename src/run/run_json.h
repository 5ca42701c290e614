// run.json of `pkb run` and `pkb evaluate` (docs/RESULTS.md): written at the start, rewritten
// atomically at the end with `finished` and `summary`; never appended.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/problem/spec.h"
#include "src/results/records_summary.h"
#include "src/results/run_info.h"

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

/// How a run or an evaluation ended.
struct RunSummary {
  results::RecordsSummary records;  // over every record in samples.jsonl, an earlier process's too
  int resumed = 0;                  // samples an earlier process had finished
  bool cancelled = false;
};

/// Ends run.json: the summary of DIR/samples.jsonl (with `resumed` and `cancelled`) and the
/// `finished` stamp are added to `doc`, which replaces DIR/run.json.
RunSummary finish_run_file(const std::filesystem::path& dir, nlohmann::json& doc, int resumed,
                           bool cancelled);

}  // namespace pkb::run
