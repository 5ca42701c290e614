// The unbiased pass@k estimator (Chen et al. 2021), used for pass@k and fast_p@k alike, and the
// median that summarizes fractions of the speed of light.
#pragma once

#include <optional>
#include <vector>

namespace pkb::score {

/// 1 - C(n-c, k) / C(n, k): the chance that at least one of k samples drawn without replacement
/// from n, of which c are good, is good. Requires 0 <= c <= n and 1 <= k <= n.
double unbiased_at_k(int n, int c, int k);

/// The middle value (the mean of the two middle ones for an even count); none for no values.
std::optional<double> median(std::vector<double> values);

}  // namespace pkb::score
