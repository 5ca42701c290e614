// Timing sanity on the 001 example at bench dims, W = 2 emulated: five separate samples, each
// correct with timing, the spread of their medians printed (the repeatability figure).
#include <gtest/gtest.h>

#include <iostream>

#include "harness/executor/timing_stats.h"
#include "tests/gpu/gpu_fixture.h"

namespace pkb::gpu_test {
namespace {

constexpr int kRepeats = 5;

TEST(GpuTiming, MediansRepeat) {
  if (const std::string reason = gpu_missing_reason(); !reason.empty()) GTEST_SKIP() << reason;
  EvalOptions options;
  options.world = 2;
  options.emulate = harness::EmulateMode::on;
  options.timing = true;
  options.bench_dims = true;
  options.trials = 1;
  std::vector<double> candidate, baseline;
  for (int repeat = 0; repeat < kRepeats; ++repeat) {
    const auto result = eval_answer(
        std::filesystem::path(PKB_SOURCE_DIR) / "problems/examples/001_allreduce_peer_loads.md",
        options);
    std::cout << "repeat " << repeat + 1 << ": " << describe(result) << "\n";
    ASSERT_EQ(result.status, harness::WorkerStatus::correct) << describe(result);
    ASSERT_TRUE(result.timing.has_value());
    const auto& timing = *result.timing;
    EXPECT_TRUE(timing.emulated);
    EXPECT_TRUE(timing.recheck_passed);
    EXPECT_GE(timing.candidate.iterations, 3 * 20);  // 3 rounds of at least 20 iterations
    EXPECT_GT(timing.candidate.median_us, 0);
    EXPECT_LE(timing.candidate.p10_us, timing.candidate.median_us);
    EXPECT_LE(timing.candidate.median_us, timing.candidate.p90_us);
    EXPECT_GE(timing.input_sets, 2);
    EXPECT_GT(timing.speedup, 0);
    candidate.push_back(timing.candidate.median_us);
    baseline.push_back(timing.baseline.median_us);
  }
  std::cout << "candidate median spread over " << kRepeats
            << " samples: " << harness::relative_spread(candidate) * 100
            << "%, baseline: " << harness::relative_spread(baseline) * 100 << "%\n";
}

}  // namespace
}  // namespace pkb::gpu_test
