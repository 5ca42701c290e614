// `pkb sol` end to end: one problem as a table and as JSON, --all, and bad input (exit 2 with the
// flag named).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/e2e/run_pkb.h"

namespace pkb::test {
namespace {

TEST(SolCli, OneProblemShowsEachResourceAndWhichBinds) {
  const PkbRun run = run_pkb("sol 001 --hardware h200_8 --world 8");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(
      run.out.find(
          "# 001_allreduce on h200_8 (8x NVIDIA H200 SXM 141 GB), W=8, bf16, dims M=1024 N=1024"),
      std::string::npos)
      << run.out;
  for (const char* resource : {"\nlink ", "\nlink_nvls ", "\nhbm ", "\nflops "})
    EXPECT_NE(run.out.find(resource), std::string::npos) << resource << "\n" << run.out;
  EXPECT_NE(run.out.find("floor 4.660 us per call, bound by link_nvls"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("without it the link takes 8.156 us"), std::string::npos) << run.out;
}

TEST(SolCli, JsonCarriesTheNumbersAndTheDerivations) {
  const PkbRun run =
      run_pkb("sol allreduce --hardware h100_8 --world 4 --dtype fp32 --dims test --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["problem"], "001_allreduce");
  EXPECT_EQ(doc["dtype"], "fp32");
  EXPECT_EQ(doc["resources"][0]["name"], "link");
  EXPECT_DOUBLE_EQ(doc["resources"][0]["work"].get<double>(), 2.0 * 3 * 4 * 8 * 4 / 4);
  EXPECT_EQ(doc["resources"][0]["expr"], "2*(W-1)*M*N*E/W");
  EXPECT_TRUE(doc["baseline_fraction"].is_null());
}

TEST(SolCli, AllPrintsARowPerProblem) {
  const PkbRun run = run_pkb("sol --all --hardware b200_8 --world 8");
  EXPECT_NE(run.out.find("\n001_allreduce "), std::string::npos) << run.out << run.err;
  EXPECT_NE(run.out.find("\n040_ddp "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(" problems with a floor, "), std::string::npos) << run.out;
  // Exit 0 exactly when every problem has a floor (the registry test names the missing ones).
  EXPECT_EQ(run.exit_code == 0, run.out.find(" 0 without a sol entry") != std::string::npos)
      << run.out;
}

TEST(SolCli, BadInputExitsTwoNamingTheFlag) {
  const PkbRun unknown = run_pkb("sol 001 --hardware h300_8 --world 8");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("--hardware h300_8: unknown machine"), std::string::npos)
      << unknown.err;
  EXPECT_NE(unknown.err.find("h100_8, h200_8, b200_8"), std::string::npos) << unknown.err;
  const PkbRun world = run_pkb("sol 001 --hardware h100_8 --world 16");
  EXPECT_EQ(world.exit_code, 2);
  EXPECT_NE(world.err.find("--world 16: h100_8 has 8 GPUs"), std::string::npos) << world.err;
  const PkbRun odd = run_pkb("sol 001 --hardware h100_8 --world 3");
  EXPECT_EQ(odd.exit_code, 2);
  EXPECT_NE(odd.err.find("--world 3: 001_allreduce allows 2, 4, 8"), std::string::npos) << odd.err;
  const PkbRun dtype = run_pkb("sol 023 --hardware h100_8 --world 2 --dtype fp16");
  EXPECT_EQ(dtype.exit_code, 2);
  EXPECT_NE(dtype.err.find("--dtype fp16"), std::string::npos) << dtype.err;
}

}  // namespace
}  // namespace pkb::test
