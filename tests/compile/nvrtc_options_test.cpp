// The NVRTC option policy and the arch check (nvrtc_options.h).
#include "src/compile/nvrtc_options.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "src/common/error.h"

namespace pkb::compile {
namespace {

TEST(NvrtcOptions, FollowsTheFixedPolicyThenTheRunsMacrosThenExtras) {
  CompileOptions options;
  options.world = 4;
  options.multicast = true;
  options.spin_timeout_ns = 5;
  options.extra_options = {"-DX=1"};
  const IncludeDirs dirs{"/inc", "/cuda", true, "/shims"};
  const std::vector<std::string> expected = {"--gpu-architecture=sm_90a",
                                             "-std=c++17",
                                             "-default-device",
                                             "-lineinfo",
                                             "--ptxas-options=-v",
                                             "-I/inc",
                                             "-I/cuda",
                                             "-I/cuda/cccl",
                                             "-I/shims",
                                             "--pre-include=pkb/pkb.cuh",
                                             "-DPKB_WORLD=4",
                                             "-DPKB_HAS_MULTICAST=1",
                                             "-DPKB_SPIN_TIMEOUT_NS=5",
                                             "-DX=1"};
  EXPECT_EQ(nvrtc_options(options, dirs), expected);
}

TEST(NvrtcOptions, LeavesOutAnUnknownWorldAndAMissingCcclFolder) {
  const std::vector<std::string> list =
      nvrtc_options(CompileOptions{}, IncludeDirs{"/inc", "/cuda", false, "/s"});
  for (const std::string& option : list) {
    EXPECT_EQ(option.find("PKB_WORLD"), std::string::npos);
    EXPECT_EQ(option.find("cccl"), std::string::npos);
  }
  EXPECT_NE(std::find(list.begin(), list.end(), "-DPKB_HAS_MULTICAST=0"), list.end());
  EXPECT_NE(std::find(list.begin(), list.end(), "-DPKB_SPIN_TIMEOUT_NS=10000000000"), list.end());
}

TEST(NvrtcOptions, SymbolicFoldersHideWhereTheFilesAre) {
  const IncludeDirs symbolic = symbolic_include_dirs({"/a/inc", "/opt/cuda", true, "/a/shims"});
  const IncludeDirs elsewhere = symbolic_include_dirs({"/b/inc", "/usr/cuda", true, "/b/shims"});
  EXPECT_EQ(nvrtc_options(CompileOptions{}, symbolic), nvrtc_options(CompileOptions{}, elsewhere));
  EXPECT_EQ(symbolic.pkb, "<pkb-include>");
}

TEST(NvrtcOptions, AcceptsSmArchsWithTheirSuffixes) {
  for (const char* arch : {"sm_90a", "sm_100a", "sm_100f", "sm_120", "sm_75"})
    EXPECT_NO_THROW(check_arch(arch)) << arch;
}

TEST(NvrtcOptions, RejectsOtherArchsNamingThem) {
  for (const char* arch : {"compute_90", "sm_", "sm_90ab", "sm90a", "sm_9x", "", "sm_90a -G"}) {
    try {
      check_arch(arch);
      ADD_FAILURE() << "accepted '" << arch << "'";
    } catch (const UsageError& error) {
      EXPECT_EQ(std::string(error.what()),
                "arch '" + std::string(arch) +
                    "': expected sm_NN, sm_NNa or sm_NNf (for example sm_90a)");
    }
  }
}

}  // namespace
}  // namespace pkb::compile
