// The unbiased estimator against values computed by hand.
#include "src/score/estimator.h"

#include <gtest/gtest.h>

namespace pkb::score {
namespace {

TEST(UnbiasedAtK, EqualsTheFractionCorrectForKOne) {
  EXPECT_DOUBLE_EQ(unbiased_at_k(4, 1, 1), 0.25);
  EXPECT_DOUBLE_EQ(unbiased_at_k(3, 2, 1), 2.0 / 3);
}

TEST(UnbiasedAtK, HandlesNEqualsKAndTheEdges) {
  EXPECT_DOUBLE_EQ(unbiased_at_k(3, 0, 3), 0.0);  // c = 0
  EXPECT_DOUBLE_EQ(unbiased_at_k(3, 1, 3), 1.0);  // n = k, one good sample
  EXPECT_DOUBLE_EQ(unbiased_at_k(3, 3, 1), 1.0);  // c = n
  EXPECT_DOUBLE_EQ(unbiased_at_k(5, 0, 5), 0.0);
}

TEST(UnbiasedAtK, MatchesTheBinomialFormula) {
  EXPECT_NEAR(unbiased_at_k(5, 2, 2), 1.0 - 3.0 / 10.0, 1e-12);    // 1 - C(3,2)/C(5,2)
  EXPECT_NEAR(unbiased_at_k(10, 3, 5), 1.0 - 21.0 / 252.0, 1e-12);  // 1 - C(7,5)/C(10,5)
}

TEST(UnbiasedAtK, StaysStableForLargeN) {
  // C(5000, 2500) overflows a double; the product form does not.
  EXPECT_NEAR(unbiased_at_k(5000, 1, 1), 1.0 / 5000, 1e-15);
  EXPECT_NEAR(unbiased_at_k(5000, 1, 2500), 0.5, 1e-12);
}

}  // namespace
}  // namespace pkb::score
