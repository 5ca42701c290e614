// evaluate: format, compile, plan, then the GPU, the simulated node, or `compiled`.
#include "src/eval/eval.h"

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
