// The sticky CUDA errors (see sticky_errors.h). Numbers from cuda.h's CUresult enum (13.0).
#include "harness/cuda/sticky_errors.h"

#include <algorithm>
#include <array>

namespace pkb::harness {

bool is_sticky_error(int cu_result) {
  constexpr std::array<int, 13> kSticky = {700, 719, 716, 715, 714, 718, 717,
                                           721, 702, 226, 710, 214, 220};
  return std::find(kSticky.begin(), kSticky.end(), cu_result) != kSticky.end();
}

}  // namespace pkb::harness
