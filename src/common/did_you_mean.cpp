// Levenshtein distance, and the rule for when a near name counts as a suggestion.
#include "src/common/did_you_mean.h"

#include <algorithm>

namespace pkb {
namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::optional<std::string> closest_match(const std::string& name,
                                         const std::vector<std::string>& candidates) {
  // A third of the name's length (at least 1) separates typos from different names; a name is
  // never "close" to one that shares none of its characters ('K' is no typo of 'M').
  const std::size_t limit = std::min(std::max<std::size_t>(1, name.size() / 3), name.size() - 1);
  if (name.empty()) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (const auto& candidate : candidates) {
    const std::size_t distance = edit_distance(name, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

}  // namespace pkb
