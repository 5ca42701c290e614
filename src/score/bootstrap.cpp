// The resampling loop. std::mt19937_64 is specified bit for bit by the standard; the index is the
// draw modulo the count (bias below 1e-15 for any count of problems), not
// std::uniform_int_distribution, whose algorithm differs between standard libraries and would make
// intervals differ between machines.
#include "src/score/bootstrap.h"

#include <algorithm>
#include <random>

namespace pkb::score {

double quantile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  if (below + 1 >= sorted.size()) return sorted.back();
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[below + 1] - sorted[below]);
}

std::vector<std::optional<Interval>> bootstrap_intervals(
    int count, int rounds, std::uint64_t seed,
    const std::function<std::vector<std::optional<double>>(const std::vector<int>&)>& statistic) {
  std::mt19937_64 generator(seed);
  std::vector<std::vector<double>> values;
  std::vector<int> pick(static_cast<std::size_t>(count));
  for (int round = 0; round < rounds && count > 0; ++round) {
    for (int& index : pick)
      index = static_cast<int>(generator() % static_cast<std::uint64_t>(count));
    const std::vector<std::optional<double>> result = statistic(pick);
    values.resize(std::max(values.size(), result.size()));
    for (std::size_t slot = 0; slot < result.size(); ++slot)
      if (result[slot]) values[slot].push_back(*result[slot]);
  }
  std::vector<std::optional<Interval>> intervals(values.size());
  for (std::size_t slot = 0; slot < values.size(); ++slot) {
    if (values[slot].empty()) continue;
    std::sort(values[slot].begin(), values[slot].end());
    intervals[slot] = Interval{quantile_sorted(values[slot], 0.025),
                               quantile_sorted(values[slot], 0.975)};
  }
  return intervals;
}

}  // namespace pkb::score
