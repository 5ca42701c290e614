// Timing statistics and iteration counts (see timing_stats.h).
#include "harness/executor/timing_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "src/common/error.h"

namespace pkb::harness {

double quantile_of(std::vector<double> values, double q) {
  if (values.empty()) throw Error("timing: no iterations to summarize");
  std::sort(values.begin(), values.end());
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const std::size_t below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return values[below] + (values[above] - values[below]) * fraction;
}

double median_of(std::vector<double> values) { return quantile_of(std::move(values), 0.5); }

TimingStats summarize_times(std::vector<double> times_us) {
  TimingStats stats;
  stats.median_us = quantile_of(times_us, 0.5);
  stats.p10_us = quantile_of(times_us, 0.1);
  stats.p90_us = quantile_of(times_us, 0.9);
  stats.mean_us =
      std::accumulate(times_us.begin(), times_us.end(), 0.0) / static_cast<double>(times_us.size());
  stats.iterations = static_cast<int>(times_us.size());
  return stats;
}

int measure_iterations(double estimated_ms, const IterationPolicy& policy) {
  const double per_iteration = std::max(estimated_ms, 1e-6);
  const double for_min_time = std::ceil(policy.measure_min_ms / per_iteration);
  const double under_cap = std::floor(policy.measure_max_ms / per_iteration);
  double count = std::max<double>(policy.measure_min_iterations, for_min_time);
  // The time cap wins over the minimum time, never over the minimum count.
  count = std::min(count, std::max<double>(policy.measure_min_iterations, under_cap));
  count = std::min<double>(count, policy.measure_max_iterations);
  return static_cast<int>(count);
}

bool warmup_done(int iterations, double elapsed_ms, const IterationPolicy& policy) {
  return iterations >= policy.warmup_min_iterations && elapsed_ms >= policy.warmup_min_ms;
}

double relative_spread(const std::vector<double>& medians) {
  if (medians.size() < 2) return 0;
  const auto [low, high] = std::minmax_element(medians.begin(), medians.end());
  const double middle = median_of(medians);
  return middle > 0 ? (*high - *low) / middle : 0;
}

}  // namespace pkb::harness
