// The unbiased pass@k estimator (Chen et al. 2021), used for pass@k and fast_p@k alike.
#pragma once

namespace pkb::score {

/// 1 - C(n-c, k) / C(n, k): the chance that at least one of k samples drawn without replacement
/// from n, of which c are good, is good. Requires 0 <= c <= n and 1 <= k <= n.
double unbiased_at_k(int n, int c, int k);

}  // namespace pkb::score
