// `pkb evaluate DIR` without the command line: evaluate the answers of a directory that
// `pkb generate` wrote (or an earlier `pkb run` / `pkb evaluate`) on this machine.
//
// The directory's generation records move once, atomically, to DIR/generate.jsonl (never
// rewritten after that: it is the source), samples.jsonl restarts empty and receives the final
// records, and run.json's kind becomes "evaluate". Every step is idempotent, so a kill at any
// moment followed by the same command loses and duplicates nothing.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/run/evaluator.h"
#include "src/run/run_json.h"

namespace pkb::run {

/// DIR/run.json, checked: schema_version 1 or 2, kind generate, run or evaluate. Throws
/// pkb::InputError naming the file and the field.
nlohmann::json read_run_json(const std::filesystem::path& dir);

struct EvaluateConfig {
  std::filesystem::path dir;
  EvalSettings eval;  // eval.out == dir
  RunContext context;
  nlohmann::json problems;  // run.json's problems list, categories included
  std::string command;      // the command line, for run.json
  std::string dims;         // "test", "bench" or NAME=SIZE,...: recorded in the fingerprint
};

struct EvaluateSummary {
  nlohmann::json summary;
  int resumed = 0;
  bool cancelled = false;
};

/// Throws pkb::UsageError for a locked directory or one evaluated before with other settings
/// (naming the field), pkb::InputError for a corrupt samples file (naming file and line).
EvaluateSummary evaluate_directory(const EvaluateConfig& config, RunStats& stats);

}  // namespace pkb::run
