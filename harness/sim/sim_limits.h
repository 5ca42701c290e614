// What one rank's simulated GPU offers, shared by the simulated node (harness/sim/sim_device) and
// the plan checks of pkb eval (src/eval/target.cpp), which must agree on num_sms.
#pragma once

#include <algorithm>
#include <cstdint>

namespace pkb::harness {

/// SMs per rank: what one H200 (132 SMs) gives each of W ranks that share it (multiples of 8, at
/// least 8): 64, 32 and 16 at W = 2, 4 and 8, so grids sized by num_sms match an emulated run on
/// one GPU and stay small enough to interpret.
inline int simulated_sms(int world) {
  constexpr int kH200Sms = 132;
  return std::max(8, kH200Sms / std::max(1, world) / 8 * 8);
}

/// Host memory a rank's buffers may take on the simulated node, which runs at test sizes.
constexpr std::uint64_t kSimulatedMemoryPerRank = 1ull << 30;

}  // namespace pkb::harness
