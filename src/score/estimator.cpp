// C(n-c, k) / C(n, k) as a product of k ratios (n-c-i)/(n-i): no factorials, so it stays exact
// enough for any n a run can have (binomials overflow a double near n = 1030).
#include "src/score/estimator.h"

#include <algorithm>

#include "src/common/error.h"

namespace pkb::score {

double unbiased_at_k(int n, int c, int k) {
  PKB_ASSERT(n >= 1 && c >= 0 && c <= n && k >= 1 && k <= n, "unbiased_at_k: bad n, c or k");
  if (n - c < k) return 1.0;  // every draw of k contains a good sample
  double all_bad = 1.0;
  for (int i = 0; i < k; ++i) all_bad *= static_cast<double>(n - c - i) / (n - i);
  return 1.0 - all_bad;
}

std::optional<double> median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

}  // namespace pkb::score
