// floor_time: the floor is the largest resource time, NVLS lowers the link term only where the
// profile and the device allow it, emulation puts every rank's work on one GPU; and the loader
// checks a "sol" entry's fields and names.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/problem/spec_loader.h"
#include "src/sol/floor.h"

namespace pkb::sol {
namespace {

Profile toy_profile() {
  Profile profile;
  profile.key = "toy";
  profile.count = 8;
  profile.hbm_bytes_per_s = 1e12;
  profile.link_bytes_per_s = 1e11;
  profile.nvls = true;
  profile.dense_flops_per_s = {{DType::bf16, 1e15}, {DType::fp16, 1e15}, {DType::fp32, 5e14}};
  return profile;
}

TEST(SolFloor, TheLargestResourceTimeBinds) {
  const Work work{2e6, std::nullopt, 1e6, 1e9};  // link 20 us, hbm 1 us, flops 1 us
  const Floor floor = floor_time(work, toy_profile(), Setting{8, DType::bf16, false, true});
  EXPECT_EQ(floor.binding, "link");
  EXPECT_DOUBLE_EQ(floor.seconds, 2e-5);
  ASSERT_EQ(floor.resources.size(), 3u);
  EXPECT_EQ(floor.resources[2].name, "flops");
  EXPECT_DOUBLE_EQ(floor.resources[2].seconds, 1e-6);

  const Work compute{0, std::nullopt, 1e6, 1e12};  // 1 ms of bf16, 2 ms of fp32
  EXPECT_EQ(floor_time(compute, toy_profile(), Setting{8, DType::bf16, false, true}).binding,
            "flops");
  EXPECT_DOUBLE_EQ(floor_time(compute, toy_profile(), Setting{8, DType::fp32, false, true}).seconds,
                   2e-3);
}

TEST(SolFloor, NvlsLowersTheLinkTermOnlyWhereUsable) {
  const Work work{2e6, 1e6, 1e3, 0};
  EXPECT_EQ(floor_time(work, toy_profile(), Setting{8, DType::bf16, false, true}).binding,
            "link_nvls");
  EXPECT_DOUBLE_EQ(floor_time(work, toy_profile(), Setting{8, DType::bf16, false, true}).seconds,
                   1e-5);
  // The device has no multicast, or the profile no NVSwitch SHARP: the plain link bound holds.
  EXPECT_EQ(floor_time(work, toy_profile(), Setting{8, DType::bf16, false, false}).binding, "link");
  Profile no_switch = toy_profile();
  no_switch.nvls = false;
  EXPECT_DOUBLE_EQ(floor_time(work, no_switch, Setting{8, DType::bf16, false, true}).seconds, 2e-5);
}

TEST(SolFloor, EmulationPutsEveryRanksWorkOnOneGpu) {
  const Work work{2e6, std::nullopt, 1e6, 0};
  const Floor floor = floor_time(work, toy_profile(), Setting{4, DType::bf16, true, true});
  EXPECT_EQ(floor.binding, "hbm");
  EXPECT_DOUBLE_EQ(floor.seconds, 4e-6);  // 4 ranks x 1 MB at 1 TB/s; no link between them
}

nlohmann::json problem_with(const nlohmann::json& sol, const std::string& extra_dim = "") {
  nlohmann::json doc = nlohmann::json::parse(R"({
    "schema_version": 1, "id": 7, "name": "demo", "category": "collective", "summary": "a demo",
    "dims": {"M": 64, "N": 32}, "test_dims": {"M": 4, "N": 2}, "world_sizes": [2, 4],
    "inputs": [{"name": "x", "dtype": "P", "shape": ["M", "N"]}],
    "outputs": [{"name": "y", "dtype": "P", "shape": ["M", "N"]}],
    "tolerance": {"bf16": {"atol": 0, "rtol": 0}, "fp16": {"atol": 0, "rtol": 0}, "fp32": {"atol": 0, "rtol": 0}}
  })");
  if (!extra_dim.empty()) {
    doc["dims"][extra_dim] = 8;
    doc["test_dims"][extra_dim] = 8;
  }
  doc["sol"] = sol;
  return doc;
}

nlohmann::json complete_sol() {
  return nlohmann::json::parse(R"({
    "link_bytes": {"expr": "2*(W-1)*M*N*E/W", "why": "ring"},
    "hbm_bytes": {"expr": "2*M*N*E", "why": "read and write"},
    "flops": {"expr": "0", "why": "none"}})");
}

std::string load_error(const nlohmann::json& doc) {
  try {
    problem::parse_problem(doc.dump(), "p.json", "");
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(SolLoader, AValidEntryLoadsAndEvaluates) {
  const auto spec = problem::parse_problem(problem_with(complete_sol()).dump(), "p.json", "");
  ASSERT_TRUE(spec.sol);
  EXPECT_FALSE(spec.sol->link_bytes_nvls);
  const Work work = evaluate_work(spec, spec.dims, 4, DType::fp32);
  EXPECT_DOUBLE_EQ(work.link_bytes, 2.0 * 3 * 64 * 32 * 4 / 4);
  EXPECT_DOUBLE_EQ(work.hbm_bytes, 2.0 * 64 * 32 * 4);
}

TEST(SolLoader, EachMalformedFieldIsNamed) {
  auto without = complete_sol();
  without.erase("flops");
  EXPECT_EQ(load_error(problem_with(without)),
            "p.json: sol.flops: expected a value, got nothing (the field is missing)");
  auto no_why = complete_sol();
  no_why["hbm_bytes"].erase("why");
  EXPECT_EQ(load_error(problem_with(no_why)),
            "p.json: sol.hbm_bytes.why: expected a value, got nothing (the field is missing)");
  auto unknown = complete_sol();
  unknown["link_bytes"]["expr"] = "M*K*E";
  EXPECT_EQ(load_error(problem_with(unknown)),
            "p.json: sol.link_bytes.expr: expected an expression over the dims, W, E and ELEM, got "
            "unknown name 'K'");
  auto rank = complete_sol();
  rank["flops"]["expr"] = "rank*M";  // a floor is per call, not per rank
  EXPECT_NE(load_error(problem_with(rank)).find("unknown name 'rank'"), std::string::npos);
  auto typo = complete_sol();
  typo["hbm_byte"] = typo["hbm_bytes"];
  EXPECT_NE(load_error(problem_with(typo)).find("did you mean 'hbm_bytes'"), std::string::npos);
}

TEST(SolLoader, AProblemsOwnDimEKeepsItsMeaningAndElemIsTheElementSize) {
  auto sol = complete_sol();
  sol["hbm_bytes"]["expr"] = "M*E*ELEM";
  const auto spec = problem::parse_problem(problem_with(sol, "E").dump(), "p.json", "");
  EXPECT_DOUBLE_EQ(evaluate_work(spec, spec.dims, 2, DType::bf16).hbm_bytes, 64.0 * 8 * 2);
  const auto plain = problem::parse_problem(problem_with(sol).dump(), "p.json", "");
  EXPECT_DOUBLE_EQ(evaluate_work(plain, plain.dims, 2, DType::fp32).hbm_bytes, 64.0 * 4 * 4);
}

TEST(SolLoader, DivisionByZeroAtSomeWorldIsReportedWithTheSetting) {
  auto sol = complete_sol();
  sol["flops"]["expr"] = "M/(W-2)";
  const auto spec = problem::parse_problem(problem_with(sol).dump(), "p.json", "");
  try {
    evaluate_work(spec, spec.dims, 2, DType::bf16);
    FAIL() << "expected a division by zero";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("007_demo: sol.flops \"M/(W-2)\" at W=2"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace pkb::sol
