// Correctness trials (see trial.h).
#include "harness/executor/trial.h"

#include <algorithm>
#include <random>

#include "harness/executor/buffer_io.h"
#include "reference/runner.h"
#include "src/check/check_ranks.h"

namespace pkb::harness {
namespace {

// Launch skew for the skewed trials: up to this much delay per rank, so a candidate that assumes
// its peers already arrived (no barrier) reads stale or poisoned data.
constexpr std::uint64_t kMaxSkewNs = 200'000;

std::vector<ref::Tensors> to_cpu(const std::vector<ref::Tensors>& ranks) {
  std::vector<ref::Tensors> out(ranks.size());
  for (std::size_t rank = 0; rank < ranks.size(); ++rank)
    for (const auto& [name, tensor] : ranks[rank]) out[rank].set(name, tensor.to(at::kCPU));
  return out;
}

}  // namespace

ReferenceSet make_reference(const Sample& sample, int seed) {
  ref::RunConfig config;
  config.world = sample.request.world;
  config.dtype = sample.request.dtype;
  config.dims = sample.request.dims;
  config.trial = seed;
  config.device = sample.reference_device;
  ReferenceSet set;
  set.inputs = ref::make_rank_inputs(sample.spec, config);
  set.expected_fp64 = to_cpu(
      ref::solve_simulated(sample.spec, config, set.inputs, {ref::SimMode::rank_order, true}));
  set.in_dtype = to_cpu(ref::solve_simulated(sample.spec, config, set.inputs, {}));
  return set;
}

TrialSummary check_outputs(const Sample& sample, const std::vector<ref::Tensors>& got,
                           const ReferenceSet& reference) {
  const auto verdicts = check::check_all_ranks(sample.spec, got, reference.expected_fp64,
                                                  reference.in_dtype, sample.request.dtype);
  TrialSummary summary;
  summary.passed = true;
  if (verdicts.empty()) return summary;
  const bool failed = !verdicts.front().passed;
  const auto worst =
      failed ? verdicts.begin()
             : std::max_element(verdicts.begin(), verdicts.end(), [](const auto& a, const auto& b) {
                 return a.error_ratio < b.error_ratio;
               });
  summary.passed = !failed;
  summary.tensor = worst->name;
  summary.rank = worst->rank;
  summary.max_abs_err = worst->max_abs_err;
  summary.max_rel_err = worst->max_rel_err;
  summary.error_ratio = worst->error_ratio;
  summary.mismatches = worst->mismatches;
  summary.first_bad_index = worst->first_bad_index;
  summary.summary = worst->summary();
  return summary;
}

TrialSummary run_trial(Sample& sample, int index, int seed, bool skew) {
  const std::string name = "trial " + std::to_string(index + 1);
  sample.progress(name + ": reference");
  const ReferenceSet reference = make_reference(sample, seed);
  ExecDevice& device = *sample.device;
  PlanRunner& runner = *sample.runner;

  sample.progress(name + ": inputs");
  write_inputs(device, runner, reference.inputs, 0);
  prepare_call(device, runner, 0, index % 2, static_cast<std::uint64_t>(seed));
  // Every rank's poison and garbage must land before any rank's kernels run: peers write into
  // each other's symmetric outputs.
  wait_or_fail(device, sample.request.call_timeout_s, name + ": preparing buffers");
  if (skew) {
    std::mt19937_64 random(static_cast<std::uint64_t>(seed) * 2654435761ull + 17);
    for (int rank = 0; rank < runner.world(); ++rank) device.delay(rank, 0, random() % kMaxSkewNs);
  }
  const std::string schedule = device.schedule_trial(index, static_cast<std::uint64_t>(seed));
  sample.progress(name + ": call" + (schedule.empty() ? "" : " (" + schedule + ")"));
  runner.issue(0);
  wait_or_fail(device, sample.request.call_timeout_s, name + (schedule.empty() ? "" : " (" + schedule + ")"));

  sample.progress(name + ": check");
  TrialSummary summary;
  const std::string changed = changed_input(device, runner, reference.inputs, 0);
  if (!changed.empty()) {
    summary.passed = false;
    summary.summary = changed;
  } else {
    summary = check_outputs(sample, read_outputs(device, runner, 0), reference);
  }
  summary.skewed = skew;
  summary.schedule = schedule;
  // What the device saw that explains a wrong answer (a shuffle from an exited lane).
  if (!summary.passed && !device.call_notes().empty()) summary.summary += "; " + device.call_notes();
  return summary;
}

}  // namespace pkb::harness
