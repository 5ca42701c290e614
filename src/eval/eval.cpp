// evaluate: format, compile, plan, then the GPU, the simulated node, or `compiled`.
#include "src/eval/eval.h"

#include <random>
#include <set>
#include <sstream>

#include "harness/plan/plan_resolve.h"
#include "src/eval/eval_run.h"

namespace pkb::eval {
namespace {

/// The first error line of an NVRTC log, for the one-line message.
std::string first_error(const std::string& log) {
  std::istringstream lines(log);
  std::string line, first;
  while (std::getline(lines, line)) {
    if (first.empty() && !line.empty()) first = line;
    if (line.find("error") != std::string::npos) return line;
  }
  return first.empty() ? "nvrtc failed without a log" : first;
}

// The plan at the scored sizes (docs/ARCHITECTURE.md, "Evaluation"): resolved for every rank at
// the bench dims and at every shape the sample will run, before anything runs, so a plan that
// only fits the small sizes (shared memory that grows with the data) is a plan_error on every
// device, with the sizes named. Returns the first failure's message, "" when all fit.
std::string check_plan_sizes(const plan::ParsedPlan& parsed, plan::PlanTarget plan_target,
                             const EvalRequest& request, const Target& target,
                             const std::vector<JudgedShape>& shapes) {
  struct Check {
    std::map<std::string, std::int64_t> dims;
    plan::DeviceLimits limits;
    std::string label;
  };
  std::vector<Check> checks = {{request.spec->dims, target.bench_limits, "at bench dims "}};
  for (const auto& shape : shapes) {
    if (shape.kind == "main") continue;  // resolved above with the target's limits
    plan::DeviceLimits limits = target.limits;
    if (shape.num_sms > 0) limits.num_sms = shape.num_sms;
    checks.push_back({shape.dims, limits, "at drawn dims "});
  }
  for (const auto& check : checks) {
    plan_target.dims = check.dims;
    plan_target.limits = check.limits;
    try {
      plan::resolve_all_ranks(parsed, plan_target);
    } catch (const plan::PlanError& error) {
      return check.label + shape_dims_text(check.dims) + ": " + error.what();
    }
  }
  return "";
}

}  // namespace

EvalOutcome evaluate(const Candidate& candidate, const EvalRequest& request, const Target& target) {
  EvalOutcome outcome;
  if (candidate.format_error) {
    outcome.status = results::SampleStatus::format_error;
    outcome.message = *candidate.format_error;
    return outcome;
  }
  compile::CompileOptions options;
  options.arch = target.arch;
  options.world = request.world;
  options.dtype = std::string(dtype_name(request.dtype));
  options.multicast = target.limits.multicast;
  options.timeout_s = request.compile_timeout_s;
  options.cache_dir = request.cache_dir;
  outcome.compile = compile::compile_cuda(candidate.source, options);
  if (!outcome.compile.ok) {
    outcome.status = results::SampleStatus::compile_error;
    outcome.message = outcome.compile.timed_out ? "compile timed out after " + std::to_string(int(request.compile_timeout_s)) + " s"
                                                : first_error(outcome.compile.log);
    return outcome;
  }

  plan::PlanTarget plan_target;
  plan_target.spec = request.spec;
  plan_target.world = request.world;
  plan_target.dtype = request.dtype;
  plan_target.dims = request.dims;
  plan_target.limits = target.limits;
  plan_target.kernels = outcome.compile.kernels;
  std::shared_ptr<const plan::ParsedPlan> parsed;
  std::vector<plan::ResolvedPlan> plans;
  try {
    parsed = plan::parse_plan(candidate.plan_json);
    plans = plan::resolve_all_ranks(*parsed, plan_target);
  } catch (const plan::PlanError& error) {
    outcome.status = results::SampleStatus::plan_error;
    outcome.message = error.what();
    return outcome;
  }
  if (target.runs()) {
    std::random_device entropy;  // drawn after compiling: no candidate knows its inputs
    std::uniform_int_distribution<int> seed(1, 1 << 30);
    outcome.shapes = sample_shapes(*request.spec, request.world, request.dims, request.trials,
                                   request.drawn_shapes, target.sim, [&] { return seed(entropy); });
  }
  const std::string misfit = check_plan_sizes(*parsed, plan_target, request, target, outcome.shapes);
  if (!misfit.empty()) {
    outcome.status = results::SampleStatus::plan_error;
    outcome.message = misfit;
    return outcome;
  }
  outcome.plan_steps = static_cast<int>(plans[0].steps.size());
  outcome.library_steps = plan::library_steps(plans[0]);

  if (!target.runs()) {
    outcome.status = results::SampleStatus::compiled;
    outcome.message = "compiled for " + target.arch + " and the plan fits " + request.spec->key + " at W=" +
                      std::to_string(request.world) + "; running it needs an NVIDIA GPU (" + target.no_gpu_reason + ")";
    return outcome;
  }
  run_on_device(candidate, request, target, outcome);
  return outcome;
}

}  // namespace pkb::eval
