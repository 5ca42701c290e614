#include "harness/executor/timing_stats.h"

#include <gtest/gtest.h>

#include "src/common/error.h"

namespace pkb::harness {
namespace {

TEST(TimingStats, SummarizesOddCount) {
  const TimingStats stats = summarize_times({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(stats.median_us, 3);
  EXPECT_DOUBLE_EQ(stats.mean_us, 3);
  EXPECT_DOUBLE_EQ(stats.p10_us, 1.4);  // numpy: 1 + 0.4 * (2 - 1)
  EXPECT_DOUBLE_EQ(stats.p90_us, 4.6);
  EXPECT_EQ(stats.iterations, 5);
}

TEST(TimingStats, MedianOfEvenCountInterpolates) { EXPECT_DOUBLE_EQ(median_of({4, 1, 3, 2}), 2.5); }

TEST(TimingStats, OneSampleIsEveryStatistic) {
  const TimingStats stats = summarize_times({7});
  EXPECT_DOUBLE_EQ(stats.p10_us, 7);
  EXPECT_DOUBLE_EQ(stats.p90_us, 7);
  EXPECT_DOUBLE_EQ(stats.median_us, 7);
}

TEST(TimingStats, RobustToOneOutlier) {
  const TimingStats stats = summarize_times({10, 10, 10, 10, 10, 10, 10, 10, 10, 1000});
  EXPECT_DOUBLE_EQ(stats.median_us, 10);
  EXPECT_DOUBLE_EQ(stats.mean_us, 109);
}

TEST(TimingStats, RejectsEmptyList) {
  EXPECT_THROW(summarize_times({}), Error);
  EXPECT_THROW(median_of({}), Error);
}

TEST(TimingStats, MeasuresAtLeastTheMinimumCount) {
  const IterationPolicy policy;
  EXPECT_EQ(measure_iterations(50.0, policy), 20);   // 20 x 50 ms = 1 s: the count rules
  EXPECT_EQ(measure_iterations(500.0, policy), 20);  // even past the 2 s cap
}

TEST(TimingStats, MeasuresAtLeastTheMinimumTime) {
  const IterationPolicy policy;
  EXPECT_EQ(measure_iterations(1.0, policy), 200);      // 200 ms at 1 ms each
  EXPECT_EQ(measure_iterations(0.003, policy), 66667);  // ceil(200 / 0.003)
}

TEST(TimingStats, CapsTheIterationCount) {
  IterationPolicy policy;
  EXPECT_EQ(measure_iterations(0.00001, policy), policy.measure_max_iterations);
  policy.measure_min_ms = 5000;  // a minimum past the cap: the cap wins
  EXPECT_EQ(measure_iterations(1.0, policy), 2000);
}

TEST(TimingStats, WarmupNeedsCountAndTime) {
  const IterationPolicy policy;
  EXPECT_FALSE(warmup_done(2, 100, policy));
  EXPECT_FALSE(warmup_done(100, 10, policy));
  EXPECT_TRUE(warmup_done(3, 50, policy));
}

TEST(TimingStats, RelativeSpreadOfMedians) {
  EXPECT_DOUBLE_EQ(relative_spread({10, 11, 9, 10, 10}), 0.2);
  EXPECT_DOUBLE_EQ(relative_spread({10}), 0);
}

}  // namespace
}  // namespace pkb::harness
