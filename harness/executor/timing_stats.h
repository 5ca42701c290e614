// The numbers a timing run reports (docs/ARCHITECTURE.md, "Evaluation"): median, mean, p10, p90 and the count, and how
// many iterations a run needs (warm up >= 3 iterations and >= 50 ms,
// measure >= 20 iterations and >= 200 ms, capped at about 2 s). Pure: no CUDA, unit-tested.
#pragma once

#include <cstdint>
#include <vector>

namespace pkb::harness {

struct TimingStats {
  double median_us = 0;
  double mean_us = 0;
  double p10_us = 0;
  double p90_us = 0;
  int iterations = 0;
};

/// Statistics of per-iteration times in microseconds. Percentiles interpolate linearly between
/// order statistics (numpy's default), so a single sample gives that sample everywhere.
/// Throws pkb::Error on an empty list.
TimingStats summarize_times(std::vector<double> times_us);

/// The median of a list (the same interpolation); throws on an empty list.
double median_of(std::vector<double> values);

/// The q-quantile (0 <= q <= 1) of a list; throws on an empty list.
double quantile_of(std::vector<double> values, double q);

struct IterationPolicy {
  int warmup_min_iterations = 3;
  double warmup_min_ms = 50;
  int measure_min_iterations = 20;
  double measure_min_ms = 200;
  double measure_max_ms = 2000;
  int measure_max_iterations = 100000;  // a 20 ns call would otherwise ask for 10^8 iterations
};

/// How many iterations to measure given the estimated time of one (from the warm-up): enough for
/// the minimum count and the minimum time, never past the time cap unless the count needs it.
int measure_iterations(double estimated_ms, const IterationPolicy& policy);

/// Whether a warm-up of `iterations` iterations that took `elapsed_ms` in total is enough.
bool warmup_done(int iterations, double elapsed_ms, const IterationPolicy& policy);

/// Relative spread of medians, (max - min) / median of them: the repeatability figure the GPU
/// tests print. 0 for fewer than two values.
double relative_spread(const std::vector<double>& medians);

}  // namespace pkb::harness
