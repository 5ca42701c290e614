// The judge: sol_ms is the floor, sol_fraction = floor / median, and a median below the floor less
// the margin is suspicious_fast; judge_run reads a worker result and matches the GPU's profile.
#include <gtest/gtest.h>

#include "src/problem/problem_index.h"
#include "src/sol/judge.h"

namespace pkb::sol {
namespace {

Floor floor_of(double seconds) {
  Floor floor;
  floor.seconds = seconds;
  floor.binding = "hbm";
  return floor;
}

TEST(SolJudge, FractionAndSuspiciousFast) {
  const Judgement slow = judge(floor_of(1e-3), 4.0, "h200_8");  // floor 1 ms, median 4 ms
  EXPECT_DOUBLE_EQ(slow.sol_ms, 1.0);
  EXPECT_DOUBLE_EQ(slow.sol_fraction, 0.25);
  EXPECT_FALSE(slow.suspicious_fast);
  EXPECT_EQ(slow.binding, "hbm");
  // Within the margin (profile error): 0.95 ms against a 1 ms floor is believable.
  EXPECT_FALSE(judge(floor_of(1e-3), 0.95, "h200_8").suspicious_fast);
  // Faster than the floor by more than the margin: impossible, flagged.
  const Judgement fast = judge(floor_of(1e-3), 0.5, "h200_8");
  EXPECT_TRUE(fast.suspicious_fast);
  EXPECT_DOUBLE_EQ(fast.sol_fraction, 2.0);
  EXPECT_FALSE(judge(floor_of(1e-3), 0, "h200_8").suspicious_fast);  // not timed
}

nlohmann::json worker_result(double median_us, const std::string& device, bool emulated) {
  return {{"status", "correct"},
          {"timing", {{"candidate", {{"median_us", median_us}}}, {"emulated", emulated}}},
          {"device", {{"names", {device}}, {"multicast", true}}}};
}

TEST(SolJudge, ASyntheticRunFasterThanItsFloorIsFlagged) {
  const auto spec =
      problem::ProblemIndex(std::string(PKB_SOURCE_DIR) + "/problems").load("001_allreduce");
  const auto profiles = load_profiles(std::string(PKB_SOURCE_DIR) + "/prompts/hardware.json");
  // 001 at W=8, bench dims, bf16 on H200: NVLS moves 2 MiB at 450 GB/s, about 4.66 us.
  std::string why;
  const auto honest = judge_run(spec, spec.dims, 8, DType::bf16,
                                worker_result(20, "NVIDIA H200", false), profiles, why);
  ASSERT_TRUE(honest) << why;
  EXPECT_EQ(honest->profile, "h200_8");
  EXPECT_EQ(honest->binding, "link_nvls");
  EXPECT_NEAR(honest->sol_ms, 1024.0 * 1024 * 2 / 450e9 * 1e3, 1e-9);
  EXPECT_NEAR(honest->sol_fraction, honest->sol_ms / 0.020, 1e-12);
  EXPECT_FALSE(honest->suspicious_fast);

  const auto cheat = judge_run(spec, spec.dims, 8, DType::bf16,
                               worker_result(1, "NVIDIA H200", false), profiles, why);
  ASSERT_TRUE(cheat);
  EXPECT_TRUE(cheat->suspicious_fast);

  EXPECT_FALSE(judge_run(spec, spec.dims, 8, DType::bf16,
                         worker_result(1, "NVIDIA A100-SXM4-80GB", false), profiles, why));
  EXPECT_NE(why.find("no hardware profile describes 'NVIDIA A100-SXM4-80GB'"), std::string::npos)
      << why;
  EXPECT_FALSE(judge_run(spec, spec.dims, 8, DType::bf16, nlohmann::json{{"status", "incorrect"}},
                         profiles, why));
  EXPECT_EQ(why, "not timed");
}

TEST(SolJudge, EmulatedRunsAreJudgedAgainstOneGpuDoingEveryRank) {
  const auto spec =
      problem::ProblemIndex(std::string(PKB_SOURCE_DIR) + "/problems").load("001_allreduce");
  const auto profiles = load_profiles(std::string(PKB_SOURCE_DIR) + "/prompts/hardware.json");
  std::string why;
  const auto run = judge_run(spec, spec.dims, 8, DType::bf16,
                             worker_result(10, "NVIDIA H200", true), profiles, why);
  ASSERT_TRUE(run) << why;
  EXPECT_EQ(run->binding, "hbm");  // 8 ranks x (read x + write y) = 32 MiB at 4.8 TB/s
  EXPECT_NEAR(run->sol_ms, 8 * 2 * 1024.0 * 1024 * 2 / 4.8e12 * 1e3, 1e-9);
}

}  // namespace
}  // namespace pkb::sol
