// Percentile bootstrap over problems: deterministic for a seed on every platform (the generator
// and the index draw are written out, not left to a library's distribution).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace pkb::score {

struct Interval {
  double low = 0, high = 0;
};

/// Draws `rounds` resamples of {0..count-1} with replacement and calls `statistic` on each; returns,
/// per output slot, the 2.5th and 97.5th percentiles of the values that were not null (nullopt
/// where every resample was null). `statistic` returns one value per slot, the same count each time.
std::vector<std::optional<Interval>> bootstrap_intervals(
    int count, int rounds, std::uint64_t seed,
    const std::function<std::vector<std::optional<double>>(const std::vector<int>&)>& statistic);

/// The q-quantile (0..1) of sorted values, linear between neighbours.
double quantile_sorted(const std::vector<double>& sorted, double q);

}  // namespace pkb::score
