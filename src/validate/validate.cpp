// validate_case: one reference, seven modes, one verdict each.
#include "src/validate/validate.h"

#include <algorithm>

#include "src/check/check_ranks.h"
#include "src/common/error.h"

namespace pkb::validate {
namespace {

ref::SimMode sim_mode(Mode mode) {
  switch (mode) {
    case Mode::reversed: return ref::SimMode::reversed;
    case Mode::tree: return ref::SimMode::tree;
    case Mode::hop_rounded: return ref::SimMode::hop_rounded;
    case Mode::skip: return ref::SimMode::skip;
    default: return ref::SimMode::rank_order;
  }
}

std::vector<ref::Tensors> zeros_like_all(const std::vector<ref::Tensors>& outputs) {
  std::vector<ref::Tensors> zeros(outputs.size());
  for (std::size_t rank = 0; rank < outputs.size(); ++rank)
    for (const auto& [name, tensor] : outputs[rank]) zeros[rank].set(name, at::zeros_like(tensor));
  return zeros;
}

}  // namespace

const char* mode_name(Mode mode) {
  switch (mode) {
    case Mode::reference: return "reference";
    case Mode::reversed: return "reversed";
    case Mode::tree: return "tree";
    case Mode::hop_rounded: return "hop_rounded";
    case Mode::skip: return "skip";
    case Mode::zeros: return "zeros";
    case Mode::other_trial: return "other_trial";
  }
  return "?";
}

bool must_pass(Mode mode) {
  return mode == Mode::reference || mode == Mode::reversed || mode == Mode::tree ||
         mode == Mode::hop_rounded;
}

std::vector<Mode> all_modes() {
  return {Mode::reference, Mode::reversed, Mode::tree,       Mode::hop_rounded,
          Mode::skip,      Mode::zeros,    Mode::other_trial};
}

bool CaseResult::ok() const {
  return std::all_of(modes.begin(), modes.end(), [](const ModeResult& mode) { return mode.ok; });
}

CaseResult validate_case(const problem::ProblemSpec& spec, int world, DType dtype,
                         const std::map<std::string, std::int64_t>& dims) {
  ref::RunConfig config;
  config.world = world;
  config.dtype = dtype;
  config.dims = dims;
  const auto inputs = ref::make_rank_inputs(spec, config);
  const auto expected_fp64 = ref::solve_simulated(spec, config, inputs, {ref::SimMode::rank_order, true});
  const auto in_dtype = ref::solve_simulated(spec, config, inputs, {});

  CaseResult result{spec.key, world, dtype, dims, {}};
  for (Mode mode : all_modes()) {
    std::vector<ref::Tensors> got;
    if (mode == Mode::reference) {
      got = in_dtype;
    } else if (mode == Mode::zeros) {
      got = zeros_like_all(in_dtype);
    } else if (mode == Mode::other_trial) {
      ref::RunConfig next = config;
      next.trial = config.trial + 1;
      got = ref::solve_simulated(spec, next, ref::make_rank_inputs(spec, next), {});
    } else {
      got = ref::solve_simulated(spec, config, inputs, {sim_mode(mode), false});
    }
    const auto verdicts = check::check_all_ranks(spec, got, expected_fp64, in_dtype, dtype);
    ModeResult mode_result;
    mode_result.mode = mode;
    mode_result.check_passed = verdicts.empty() || verdicts.front().passed;
    mode_result.ok = mode_result.check_passed == must_pass(mode);
    if (!verdicts.empty()) {
      // The worst passing tensor tells how close a perturbed mode came to the bound.
      const auto worst = mode_result.check_passed
                             ? std::max_element(verdicts.begin(), verdicts.end(),
                                                [](const auto& a, const auto& b) { return a.error_ratio < b.error_ratio; })
                             : verdicts.begin();
      mode_result.detail = worst->summary();
    }
    result.modes.push_back(mode_result);
  }
  return result;
}

}  // namespace pkb::validate
