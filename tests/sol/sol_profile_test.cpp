// The hardware profiles in prompts/hardware.json: h100_8, h200_8 and b200_8 with every number and
// its source; unknown keys name --hardware and the known machines; device names match exactly.
#include <gtest/gtest.h>

#include <fstream>

#include "src/common/error.h"
#include "src/sol/profile.h"

namespace pkb::sol {
namespace {

std::vector<Profile> repo_profiles() {
  return load_profiles(std::string(PKB_SOURCE_DIR) + "/prompts/hardware.json");
}

TEST(SolProfile, TheThreeMachinesCarryEveryNumberWithItsSource) {
  const auto profiles = repo_profiles();
  for (const char* key : {"h100_8", "h200_8", "b200_8"}) {
    const Profile profile = find_profile(profiles, key);
    EXPECT_EQ(profile.count, 8) << key;
    EXPECT_TRUE(profile.nvls) << key;
    EXPECT_GT(profile.l2_bytes, 0) << key;
    EXPECT_GT(profile.sm_count, 100) << key;
    for (const char* field : {"hbm_bytes_per_s", "link_bytes_per_s", "nvls", "l2_bytes", "sm_count",
                              "dense_flops_per_s.bf16", "dense_flops_per_s.fp16",
                              "dense_flops_per_s.fp32", "dense_flops_per_s.fp8"})
      EXPECT_GT(profile.sources.count(field) ? profile.sources.at(field).size() : 0u, 10u)
          << key << " " << field;
  }
  const Profile h100 = find_profile(profiles, "h100_8");
  EXPECT_DOUBLE_EQ(h100.hbm_bytes_per_s, 3.35e12);
  EXPECT_DOUBLE_EQ(h100.link_bytes_per_s, 450e9);  // 900 GB/s both directions together
  EXPECT_DOUBLE_EQ(find_profile(profiles, "h200_8").hbm_bytes_per_s, 4.8e12);
  EXPECT_DOUBLE_EQ(find_profile(profiles, "b200_8").link_bytes_per_s, 900e9);
  EXPECT_GT(h100.flops_rate(DType::bf16), h100.flops_rate(DType::fp32));
}

TEST(SolProfile, AnUnknownKeyNamesTheFlagAndTheKnownMachines) {
  try {
    find_profile(repo_profiles(), "h300_8");
    FAIL() << "expected a UsageError";
  } catch (const UsageError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind("--hardware h300_8: unknown machine", 0), 0u) << message;
    EXPECT_NE(message.find("expected one of h100_8, h200_8, b200_8"), std::string::npos) << message;
  }
}

TEST(SolProfile, DeviceNamesMatchExactly) {
  const auto profiles = repo_profiles();
  ASSERT_TRUE(match_profile(profiles, "NVIDIA H200"));
  EXPECT_EQ(match_profile(profiles, "NVIDIA H200")->key, "h200_8");
  EXPECT_EQ(match_profile(profiles, "NVIDIA H100 80GB HBM3")->key, "h100_8");
  EXPECT_FALSE(match_profile(profiles, "NVIDIA H100 PCIe"));  // slower HBM: not the SXM profile
  EXPECT_FALSE(match_profile(profiles, "NVIDIA H200 NVL"));
}

TEST(SolProfile, ANumberWithoutASourceIsRefused) {
  const std::string path = testing::TempDir() + "/hardware_no_source.json";
  std::ofstream(path) << R"({"machines": [{"key": "x", "gpu": "X", "count": 2, "profile": {
      "hbm_bytes_per_s": {"value": 1e12}}}]})";
  try {
    load_profiles(path);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("machines[0].profile.hbm_bytes_per_s.source"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace pkb::sol
