// What `pkb eval` prints about one solution: a table (stages, timing, speed of light, warnings,
// status) or, with --json, one document.
#pragma once

#include <nlohmann/json.hpp>

#include "src/eval/eval.h"

namespace pkb::cli {

/// The --json document (schema_version 1): setting, target, status, compile, plan, the worker's
/// result as it wrote it, and the speed-of-light judgement.
nlohmann::ordered_json outcome_json(const problem::ProblemSpec& spec,
                                    const eval::EvalRequest& request, const eval::Target& target,
                                    const eval::EvalOutcome& outcome);

/// The table on stdout; a compile error's log beyond its first line on stderr.
void print_outcome(const problem::ProblemSpec& spec, const eval::EvalRequest& request,
                   const eval::Target& target, const eval::EvalOutcome& outcome);

}  // namespace pkb::cli
