// `pkb evaluate DIR` without the command line: evaluate the answers of a directory that
// `pkb generate` wrote (or an earlier `pkb run` / `pkb evaluate`) on this machine.
//
// The directory's generation records move once, atomically, to DIR/generate.jsonl (never
// rewritten after that: it is the source), samples.jsonl restarts empty and receives the final
// records, and run.json's kind becomes "evaluate". Every step is idempotent, so a kill at any
// moment followed by the same command loses and duplicates nothing.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/problem/problem_index.h"
#include "src/results/run_info.h"
#include "src/run/evaluator.h"
#include "src/run/run_json.h"

namespace pkb::run {

/// DIR/run.json, checked: schema_version 1 or 2, kind generate, run or evaluate. Throws
/// pkb::InputError naming the file and the field.
nlohmann::json read_run_json(const std::filesystem::path& dir);

/// What DIR's run.json asks to evaluate, loaded from `index`.
struct EvaluationProblems {
  std::vector<problem::ProblemSpec> specs;
  std::vector<std::map<std::string, std::int64_t>> dims;  // per spec
  std::vector<results::RunProblem> entries;  // run.json's, with the spec's id and category
  std::string dims_text;  // `dims`, or else the run's fingerprint.dims, or else "bench"
  int max_world = 1;
};

/// Throws pkb::InputError naming DIR/run.json and the problem when one is not in `index`.
EvaluationProblems evaluation_problems(const std::filesystem::path& dir,
                                       const problem::ProblemIndex& index,
                                       const std::string& dims);

struct EvaluateConfig {
  std::filesystem::path dir;
  EvalSettings eval;  // eval.out == dir
  RunContext context;
  std::vector<results::RunProblem> problems;  // run.json's problems list, categories included
  std::string command;      // the command line, for run.json
  std::string dims;         // "test", "bench" or NAME=SIZE,...: recorded in the fingerprint
};

/// Throws pkb::UsageError for a locked directory or one evaluated before with other settings
/// (naming the field), pkb::InputError for a corrupt samples file (naming file and line).
RunSummary evaluate_directory(const EvaluateConfig& config, RunStats& stats);

}  // namespace pkb::run
