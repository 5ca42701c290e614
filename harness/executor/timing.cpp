// CandidateTimer (see timing.h).
#include "harness/executor/timing.h"

#include <algorithm>
#include <numeric>

namespace pkb::harness {
namespace {

// Iterations issued before one synchronize: enough to keep the GPUs busy while the host issues,
// few enough that a hang is found within a few call deadlines. Two events per iteration per rank.
constexpr int kMaxBatch = 64;
// A warm-up that never reaches its minimum time (a call of a few microseconds) stops here.
constexpr int kMaxWarmupIterations = 5000;

}  // namespace

std::vector<double> CandidateTimer::iterations(int count, const std::string& stage) {
  ExecDevice& device = *sample_.device;
  PlanRunner& runner = *sample_.runner;
  const int first_event = runner.first_free_event();
  std::vector<double> times;
  for (int done = 0; done < count;) {
    const int batch = std::min(kMaxBatch, count - done);
    for (int i = 0; i < batch; ++i) {
      for (int rank = 0; rank < runner.world(); ++rank) {
        device.barrier(rank, 0);
        device.record(rank, 0, first_event + 2 * i);
      }
      runner.issue(next_set_);
      next_set_ = (next_set_ + 1) % sets_;
      for (int rank = 0; rank < runner.world(); ++rank)
        device.record(rank, 0, first_event + 2 * i + 1);
    }
    wait_or_fail(device, sample_.request.call_timeout_s * batch, stage);
    for (int i = 0; i < batch; ++i) {
      double slowest = 0;
      for (int rank = 0; rank < runner.world(); ++rank)
        slowest = std::max(slowest,
                           device.elapsed_ms(rank, first_event + 2 * i, first_event + 2 * i + 1));
      times.push_back(slowest * 1000);
    }
    done += batch;
  }
  return times;
}

std::vector<double> CandidateTimer::run(const IterationPolicy& policy, const std::string& stage) {
  ExecDevice& device = *sample_.device;
  PlanRunner& runner = *sample_.runner;
  // The signal pad is zeroed once per timing run and never between iterations (docs/ABI.md).
  for (int rank = 0; rank < runner.world(); ++rank)
    device.memset(rank, 0, runner.signal_pad(rank), 0, runner.signal_pad_bytes());
  wait_or_fail(device, sample_.request.call_timeout_s, stage + ": preparing");

  sample_.progress(stage + ": warm-up");
  std::vector<double> warmup;
  double warmup_ms = 0;
  while (!warmup_done(static_cast<int>(warmup.size()), warmup_ms, policy) &&
         static_cast<int>(warmup.size()) < kMaxWarmupIterations) {
    const auto batch = iterations(policy.warmup_min_iterations, stage + ": warm-up");
    warmup.insert(warmup.end(), batch.begin(), batch.end());
    warmup_ms = std::accumulate(warmup.begin(), warmup.end(), 0.0) / 1000;
  }
  // The latest warm-up iterations estimate best (clocks have ramped, modules are loaded).
  const std::vector<double> recent(warmup.end() - std::min<std::size_t>(warmup.size(), 10),
                                   warmup.end());
  const int count = measure_iterations(median_of(recent) / 1000, policy);
  sample_.progress(stage + ": " + std::to_string(count) + " iterations");
  return iterations(count, stage);
}

}  // namespace pkb::harness
