// Reduction orders: the reference rounds once after an fp32 sum, hop_rounded rounds after every
// addition, and the two differ where bf16 cannot hold a partial sum.
#include "reference/comm/sim_reduce.h"

#include <gtest/gtest.h>

namespace pkb::ref {
namespace {

std::vector<at::Tensor> bf16_parts(std::initializer_list<double> values) {
  std::vector<at::Tensor> parts;
  for (double value : values) parts.push_back(at::full({1}, value, at::kDouble).to(at::kBFloat16));
  return parts;
}

double value(const at::Tensor& tensor) { return tensor.to(at::kDouble).item<double>(); }

TEST(SimReduce, RoundsOnceInRankOrder) {
  // 1 + 2^-8 + 2^-8 = 1 + 2^-7 in fp32, which bf16 (7 stored mantissa bits) holds exactly.
  const auto parts = bf16_parts({1.0, 1.0 / 256, 1.0 / 256});
  EXPECT_EQ(value(combine(parts, ReduceOp::sum, SimMode::rank_order)), 1.0 + 1.0 / 128);
  EXPECT_EQ(combine(parts, ReduceOp::sum, SimMode::rank_order).scalar_type(), at::kBFloat16);
}

TEST(SimReduce, HopRoundingLosesWhatBf16CannotHold) {
  // 1 + 2^-8 rounds to 1 (ties to even) at every hop.
  const auto parts = bf16_parts({1.0, 1.0 / 256, 1.0 / 256});
  EXPECT_EQ(value(combine(parts, ReduceOp::sum, SimMode::hop_rounded)), 1.0);
}

TEST(SimReduce, OrdersAgreeOnExactData) {
  const auto parts = bf16_parts({3, -5, 8, 1, 7});
  for (SimMode mode : {SimMode::rank_order, SimMode::reversed, SimMode::tree, SimMode::hop_rounded})
    EXPECT_EQ(value(combine(parts, ReduceOp::sum, mode)), 14) << sim_mode_name(mode);
  EXPECT_EQ(value(combine(parts, ReduceOp::max, SimMode::tree)), 8);
  EXPECT_EQ(value(combine(parts, ReduceOp::min, SimMode::tree)), -5);
}

TEST(SimReduce, IntegerSumsAreExactAndAvgTruncates) {
  std::vector<at::Tensor> parts = {at::full({1}, 7, at::kLong), at::full({1}, 8, at::kLong)};
  EXPECT_EQ(combine(parts, ReduceOp::sum, SimMode::rank_order).item<std::int64_t>(), 15);
  EXPECT_EQ(combine(parts, ReduceOp::avg, SimMode::rank_order).item<std::int64_t>(), 7);
}

}  // namespace
}  // namespace pkb::ref
