// run_sample (see executor.h): set-up, trials, timing or repeated calls, re-check, verdict.
#include "harness/executor/executor.h"

#include <algorithm>
#include <chrono>

#include "harness/executor/buffer_io.h"
#include "harness/executor/device_error.h"
#include "harness/executor/drawn_trials.h"
#include "harness/executor/executor_setup.h"
#include "harness/executor/input_sets.h"
#include "harness/executor/timing.h"
#include "harness/executor/trial.h"
#include "reference/runner.h"

namespace pkb::harness {
namespace {

// Calls the simulated node makes after the trials, without reloading the module, in place of the
// timed iterations of a GPU: a candidate that keeps state across calls fails the re-check.
constexpr int kRepeatedCalls = 3;

DeviceSummary describe(const ExecDevice& device) {
  const DeviceInfo& info = device.info();
  return {info.names,     info.emulated, info.green_contexts, info.green_note, info.sms_per_rank,
          info.multicast, info.arch,     info.simulated};
}

// Every other trial starts its ranks with random delays; the first never does, so a plain bug
// and a missing barrier show up as different trials.
void run_trials(Sample& sample, WorkerResult& result) {
  const auto& seeds = sample.request.trial_seeds;
  if (seeds.empty()) throw Error("executor: the request has no trial seeds");
  for (std::size_t index = 0; index < seeds.size(); ++index) {
    if (index > 0) sample.device->reload_module();  // no __device__ state carries over
    TrialSummary summary = run_trial(sample, static_cast<int>(index), seeds[index], index % 2 == 1);
    summary.shape = shape_text(sample.request.dims);
    summary.num_sms = sample.device->info().sms_per_rank;
    result.trials.push_back(summary);
    if (!summary.passed)
      throw SampleFailed(WorkerStatus::incorrect,
                         "trial " + std::to_string(index + 1) + ": " + summary.summary);
  }
}

bool has_inout(const PlanRunner& runner) {
  for (const auto& buffer : runner.plan(0).buffers)
    if (buffer.inout) return true;
  return false;
}

// After timing (or the simulated node's repeated calls): the last call's outputs must answer its
// inputs (unless an inout output was updated again by every call), and one more call, on poisoned
// outputs and another input set, must be right too. A candidate that stops working after its
// first calls fails here.
// `after` names what came before in the messages: "timing" on a GPU, "repeated calls" on the
// simulated node.
void recheck(Sample& sample, int last, int sets, int distinct, const std::string& after) {
  ExecDevice& device = *sample.device;
  PlanRunner& runner = *sample.runner;
  const int seed = sample.request.timing_seed;
  if (!has_inout(runner)) {
    sample.progress(after + ": re-check of the last call");
    const TrialSummary summary = check_outputs(sample, read_outputs(device, runner, last),
                                               make_reference(sample, seed + last % distinct));
    if (!summary.passed)
      throw SampleFailed(WorkerStatus::incorrect, (after == "timing" ? "last timed call: " : "last repeated call: ") + summary.summary);
  }
  sample.progress(after + ": re-check call");
  const int set = (last + 1) % sets;
  const ReferenceSet reference = make_reference(sample, seed + set % distinct);
  write_inouts(device, runner, reference.inputs, set);
  prepare_call(device, runner, set, 1, static_cast<std::uint64_t>(seed) + 1);
  wait_or_fail(device, sample.request.call_timeout_s, "re-check after " + after + ": preparing buffers");
  runner.issue(set);
  wait_or_fail(device, sample.request.call_timeout_s, "re-check after " + after);
  const std::string changed = changed_input(device, runner, reference.inputs, set);
  if (!changed.empty())
    throw SampleFailed(WorkerStatus::incorrect, "re-check after " + after + ": " + changed);
  const TrialSummary summary = check_outputs(sample, read_outputs(device, runner, set), reference);
  if (!summary.passed)
    throw SampleFailed(WorkerStatus::incorrect, "re-check after " + after + ": " + summary.summary);
}

TimingResult time_sample(Sample& sample, const BaselineFactory& make_baseline) {
  ExecDevice& device = *sample.device;
  PlanRunner& runner = *sample.runner;
  sample.progress("timing: input sets");
  std::uint64_t per_rank = 0, all_ranks = 0;
  for (int rank = 0; rank < runner.world(); ++rank) {
    per_rank = std::max(per_rank, input_bytes(runner, rank));
    all_ranks += input_bytes(runner, rank);
  }
  // Emulated ranks share one L2, so the cache sees every rank's inputs together.
  const std::uint64_t cached = device.emulated() ? all_ranks : per_rank;
  const InputSetPlan sets = plan_input_sets(cached, device.info().l2_bytes);
  std::vector<std::vector<ref::Tensors>> distinct;
  for (int d = 0; d < sets.distinct; ++d) {
    ref::RunConfig config;
    config.world = sample.request.world;
    config.dtype = sample.request.dtype;
    config.dims = sample.request.dims;
    config.trial = sample.request.timing_seed + d;
    config.device = sample.reference_device;
    distinct.push_back(ref::make_rank_inputs(sample.spec, config));
  }
  while (runner.input_sets() < sets.sets) runner.add_input_set();
  for (int set = 0; set < sets.sets; ++set)
    write_inputs(device, runner, distinct[set % sets.distinct], set);
  prepare_call(device, runner, 0, 0, static_cast<std::uint64_t>(sample.request.timing_seed));
  wait_or_fail(device, sample.request.call_timeout_s, "timing: preparing buffers");
  device.reload_module();

  TimingResult timing;
  timing.emulated = device.emulated();
  timing.input_sets = sets.sets;
  timing.distinct_input_sets = sets.distinct;
  timing.exceeds_l2 = sets.exceeds_l2;
  const IterationPolicy policy;
  CandidateTimer candidate(sample, sets.sets);
  sample.progress("timing: baseline set-up");
  const std::unique_ptr<Baseline> baseline = make_baseline(sample, distinct, sets.sets);
  timing.baseline_kind = baseline->kind();
  std::vector<double> candidate_all, baseline_all;
  for (int round = 1; round <= std::max(1, sample.request.timing_rounds); ++round) {
    const std::string name = "timing round " + std::to_string(round);
    const auto c = candidate.run(policy, name + ": candidate");
    sample.progress(name + ": baseline");
    const auto b = baseline->run(policy);
    timing.round_speedups.push_back(median_of(b) / std::max(median_of(c), 1e-9));
    candidate_all.insert(candidate_all.end(), c.begin(), c.end());
    baseline_all.insert(baseline_all.end(), b.begin(), b.end());
  }
  timing.candidate = summarize_times(candidate_all);
  timing.baseline = summarize_times(baseline_all);
  timing.speedup = median_of(timing.round_speedups);
  recheck(sample, candidate.last_set(), sets.sets, sets.distinct, "timing");
  timing.recheck_passed = true;
  return timing;
}

// The simulated node's stand-in for timing: kRepeatedCalls calls on two rotating input sets, the
// signal pad zeroed once before them (as before a timing run), no reload; then the re-check.
int repeat_calls(Sample& sample) {
  ExecDevice& device = *sample.device;
  PlanRunner& runner = *sample.runner;
  constexpr int kSets = 2;
  sample.progress("repeated calls: inputs");
  while (runner.input_sets() < kSets) runner.add_input_set();
  for (int set = 0; set < kSets; ++set) {
    ref::RunConfig config;
    config.world = sample.request.world;
    config.dtype = sample.request.dtype;
    config.dims = sample.request.dims;
    config.trial = sample.request.timing_seed + set;
    config.device = sample.reference_device;
    write_inputs(device, runner, ref::make_rank_inputs(sample.spec, config), set);
  }
  prepare_call(device, runner, 0, 0, static_cast<std::uint64_t>(sample.request.timing_seed));
  wait_or_fail(device, sample.request.call_timeout_s, "repeated calls: preparing buffers");
  device.reload_module();
  device.schedule_trial(static_cast<int>(sample.request.trial_seeds.size()),
                        static_cast<std::uint64_t>(sample.request.timing_seed));
  for (int call = 0; call < kRepeatedCalls; ++call) {
    sample.progress("repeated call " + std::to_string(call + 1));
    for (int rank = 0; rank < runner.world(); ++rank) device.barrier(rank, 0);
    runner.issue(call % kSets);
    wait_or_fail(device, sample.request.call_timeout_s, "repeated call " + std::to_string(call + 1));
  }
  recheck(sample, (kRepeatedCalls - 1) % kSets, kSets, kSets, "repeated calls");
  return kRepeatedCalls + 1;
}

std::string timing_note(const TimingResult& timing) {
  std::string note;
  if (timing.emulated) note += "timings are emulated (ranks share one GPU) and not comparable; ";
  if (!timing.exceeds_l2) note += "inputs could not be rotated past 3x L2; ";
  if (!note.empty()) note.resize(note.size() - 2);
  return note;
}

}  // namespace

WorkerResult run_sample(const WorkerRequest& request, const Backend& backend) {
  const auto start = std::chrono::steady_clock::now();
  WorkerResult result;
  result.stage = "set-up";
  std::unique_ptr<Sample> sample;
  try {
    sample = set_up_sample(request, backend.make_device);
    result.device = describe(*sample->device);
    result.library_steps = sample->runner->library_steps();
    run_trials(*sample, result);
    if (!request.drawn_trials.empty()) {
      // The main sizes' device goes while the drawn ones run, and comes back for what follows.
      add_simulation(result, *sample->device);
      sample.reset();
      run_drawn_trials(request, backend.make_device, sample, result);
      sample = set_up_sample(request, backend.make_device);
    }
    if (!backend.make_baseline || sample->device->info().simulated) {
      repeat_calls(*sample);
      result.message = "judged on the simulated node: correct in every trial and after repeated calls; nothing was timed";
    } else if (request.timing) {
      result.timing = time_sample(*sample, backend.make_baseline);
      result.message = timing_note(*result.timing);
    }
    result.status = WorkerStatus::correct;
  } catch (const SampleFailed& failed) {
    result.status = failed.status();
    result.message = failed.what();
  } catch (const plan::PlanError& error) {
    result.status = WorkerStatus::plan_error;
    result.message = error.what();
  } catch (const DeviceError& error) {
    // A launch the driver refused (a bad cluster shape, too many resources), or a sticky error
    // from an earlier kernel surfacing in a later call.
    result.status = WorkerStatus::runtime_error;
    result.message = error.what();
  }
  if (sample) {
    result.stage = sample->stage;
    if (sample->device) add_simulation(result, *sample->device);
  }
  // After a hang or a device fault, tearing the device down (unmapping memory a kernel may still
  // use, destroying streams) can block or fail; the worker exits right after, which frees it all.
  if (result.status == WorkerStatus::timeout || result.status == WorkerStatus::runtime_error)
    static_cast<void>(sample.release());
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (result.simulation) result.simulation->seconds = result.seconds;
  return result;
}

}  // namespace pkb::harness
