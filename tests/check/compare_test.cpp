// The correctness rule: reordered sums pass, skipped communication, NaN and wrong integers fail.
#include "src/check/compare.h"

#include <gtest/gtest.h>

namespace pkb::check {
namespace {

const Rule kRule{{0.0, 0.0}, 8};

TEST(Compare, PassesTheReferenceItselfAndReordersWithinTheRatio) {
  // fp64 answer 1/3 * k; the bf16 reference is off by its rounding; a candidate twice as far passes.
  const at::Tensor expected = at::arange(1, 65, at::kDouble) / 3.0;
  const at::Tensor reference = expected.to(at::kBFloat16);
  const double reference_error = (reference.to(at::kDouble) - expected).abs().max().item<double>();
  ASSERT_GT(reference_error, 0);
  EXPECT_TRUE(compare_tensor("y", 0, reference, expected, reference, kRule).passed);
  const at::Tensor off = (expected + 2 * reference_error).to(at::kBFloat16);
  const auto verdict = compare_tensor("y", 0, off, expected, reference, kRule);
  EXPECT_TRUE(verdict.passed) << verdict.summary();
  EXPECT_GT(verdict.error_ratio, 1.0);
  EXPECT_LE(verdict.error_ratio, 8.0);
}

TEST(Compare, FailsBeyondTheRatioAndReportsTheFirstBadIndex) {
  const at::Tensor expected = at::arange(1, 13, at::kDouble).view({3, 4}) / 3.0;
  const at::Tensor reference = expected.to(at::kBFloat16);
  at::Tensor got = reference.clone();
  got[1][2] = 100.0;
  got[2][3] = 100.0;
  const auto verdict = compare_tensor("y", 3, got, expected, reference, kRule);
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.mismatches, 2);
  EXPECT_EQ(verdict.first_bad_index, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(verdict.got_at_first_bad, 100.0);
  EXPECT_EQ(verdict.summary().rfind("rank 3 y: 2/12 mismatches, first at [1, 2]: got 100 expected 2.33333", 0), 0u)
      << verdict.summary();
}

TEST(Compare, ExactDataAllowsOnlyTheTolerance) {
  const at::Tensor expected = at::full({4}, 6.0, at::kDouble);
  const at::Tensor reference = expected.to(at::kBFloat16);
  EXPECT_FALSE(compare_tensor("y", 0, at::full({4}, 6.0625).to(at::kBFloat16), expected, reference, kRule).passed);
  const Rule loose{{0.1, 0.0}, 8};
  EXPECT_TRUE(compare_tensor("y", 0, at::full({4}, 6.0625).to(at::kBFloat16), expected, reference, loose).passed);
  const Rule relative{{0.0, 0.02}, 8};
  EXPECT_TRUE(compare_tensor("y", 0, at::full({4}, 6.0625).to(at::kBFloat16), expected, reference, relative).passed);
}

TEST(Compare, NanOrInfWhereTheAnswerIsFiniteFails) {
  const at::Tensor expected = at::ones({3}, at::kDouble);
  const at::Tensor reference = expected.to(at::kFloat);
  const Rule loose{{1e9, 1e9}, 8};
  at::Tensor nan = reference.clone();
  nan[1] = NAN;
  EXPECT_FALSE(compare_tensor("y", 0, nan, expected, reference, loose).passed);
  at::Tensor inf = reference.clone();
  inf[2] = INFINITY;
  EXPECT_FALSE(compare_tensor("y", 0, inf, expected, reference, loose).passed);
}

TEST(Compare, NonFiniteAnswersMustBeMatched) {
  at::Tensor expected = at::ones({2}, at::kDouble);
  expected[0] = INFINITY;
  const at::Tensor reference = expected.to(at::kFloat);
  EXPECT_TRUE(compare_tensor("y", 0, reference, expected, reference, kRule).passed);
  at::Tensor wrong = reference.clone();
  wrong[0] = -INFINITY;
  EXPECT_FALSE(compare_tensor("y", 0, wrong, expected, reference, kRule).passed);
}

TEST(Compare, IntegersCompareExactly) {
  const at::Tensor expected = at::arange(6, at::kLong);
  at::Tensor got = expected.clone();
  EXPECT_TRUE(compare_tensor("idx", 0, got, expected, expected, kRule).passed);
  got[5] = 4;
  const auto verdict = compare_tensor("idx", 0, got, expected, expected, Rule{{100, 100}, 8});
  EXPECT_FALSE(verdict.passed);
  EXPECT_TRUE(verdict.exact);
}

TEST(Compare, ShapeAndDtypeMustMatch) {
  const at::Tensor expected = at::zeros({2, 3}, at::kDouble);
  const at::Tensor reference = expected.to(at::kFloat);
  EXPECT_EQ(compare_tensor("y", 1, at::zeros({3, 2}), expected, reference, kRule).summary(),
            "rank 1 y: shape [3, 2], expected [2, 3]");
  EXPECT_EQ(compare_tensor("y", 1, at::zeros({2, 3}, at::kHalf), expected, reference, kRule).summary(),
            "rank 1 y: dtype Half, expected Float");
}

}  // namespace
}  // namespace pkb::check
