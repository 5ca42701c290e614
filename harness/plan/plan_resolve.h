// Parsing a plan's JSON text and resolving it for one rank of a run (see plan.h).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/plan/plan.h"
#include "src/compile/compile.h"
#include "src/problem/spec.h"

namespace pkb::plan {

/// The plan as written: syntax and field names checked, expressions parsed, nothing evaluated.
struct ParsedPlan;

/// Throws PlanError naming the JSON location of the first problem.
std::shared_ptr<const ParsedPlan> parse_plan(const std::string& json_text);

/// Everything a plan is resolved against.
struct PlanTarget {
  const problem::ProblemSpec* spec = nullptr;
  int world = 2;
  DType dtype = DType::bf16;                    // the run precision P
  std::map<std::string, std::int64_t> dims;     // the run's sizes
  DeviceLimits limits;
  std::vector<compile::KernelSignature> kernels;  // from the compiled source
};

/// One rank's plan. Throws PlanError ("rank 1: steps[3].args[2]: ...").
ResolvedPlan resolve_plan(const ParsedPlan& plan, const PlanTarget& target, int rank);

/// Every rank's plan, with the cross-rank checks (symmetric buffers equal in size on every rank).
std::vector<ResolvedPlan> resolve_all_ranks(const ParsedPlan& plan, const PlanTarget& target);

}  // namespace pkb::plan
