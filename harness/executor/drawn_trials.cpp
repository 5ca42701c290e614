// run_drawn_trials and the simulation counters of several samples (see drawn_trials.h).
#include "harness/executor/drawn_trials.h"

#include "harness/executor/trial.h"
#include "harness/plan/plan.h"

namespace pkb::harness {

std::string shape_text(const std::map<std::string, std::int64_t>& dims) {
  std::string out;
  for (const auto& [name, size] : dims) out += (out.empty() ? "" : " ") + name + "=" + std::to_string(size);
  return out;
}

void add_simulation(WorkerResult& result, const ExecDevice& device) {
  const auto more = device.simulation();
  if (!more) return;
  if (!result.simulation) {
    result.simulation = more;
    return;
  }
  result.simulation->lane_instructions += more->lane_instructions;
  result.simulation->calls += more->calls;
}

// Trial numbers follow those of the trials at the request's dims, so those keep their schedules
// and skew.
void run_drawn_trials(const WorkerRequest& request, const DeviceFactory& make_device,
                      std::unique_ptr<Sample>& sample, WorkerResult& result) {
  const int first = static_cast<int>(request.trial_seeds.size());
  for (std::size_t k = 0; k < request.drawn_trials.size(); ++k) {
    const DrawnTrial& drawn = request.drawn_trials[k];
    WorkerRequest one = request;
    one.dims = drawn.dims;
    // trial_seeds stay: the simulated node derives its schedule seed from them, one per sample.
    one.drawn_trials.clear();
    one.num_sms = drawn.num_sms;
    const int index = first + static_cast<int>(k);
    const std::string where = "trial " + std::to_string(index + 1) + " at " + shape_text(drawn.dims) +
                              (drawn.num_sms > 0 ? " (num_sms " + std::to_string(drawn.num_sms) + ")" : "");
    try {
      sample = set_up_sample(one, make_device);
      TrialSummary summary = run_trial(*sample, index, drawn.seed, index % 2 == 1);
      summary.shape = shape_text(drawn.dims);
      summary.num_sms = sample->device->info().sms_per_rank;
      result.trials.push_back(summary);
      if (!summary.passed) throw SampleFailed(WorkerStatus::incorrect, where + ": " + summary.summary);
    } catch (const SampleFailed& failed) {
      if (std::string(failed.what()).rfind(where, 0) == 0) throw;
      // "trial 5: rank 1 did not finish ..." from inside the trial: name the sizes instead.
      std::string message = failed.what();
      const std::string plain = "trial " + std::to_string(index + 1);
      if (message.rfind(plain, 0) == 0) message = message.substr(plain.size());
      else message = ": " + message;
      throw SampleFailed(failed.status(), where + message);
    } catch (const plan::PlanError& error) {
      throw plan::PlanError(where + ": " + error.what());
    }
    add_simulation(result, *sample->device);
    sample.reset();
  }
}

}  // namespace pkb::harness
