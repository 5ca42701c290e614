// Shared setup of the plan tests: problem 001 (x [M, N] -> y [M, N]) at test dims, H200 limits,
// and a hand-written kernel signature list, so plans resolve without compiling anything.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "harness/plan/plan_resolve.h"
#include "src/problem/spec_loader.h"

namespace pkb::plan {

inline compile::KernelParam u64() { return {8, 8, ".u64", "", ""}; }
inline compile::KernelParam u32() { return {4, 4, ".u32", "", ""}; }
inline compile::KernelParam f32() { return {4, 4, ".f32", "", ""}; }
inline compile::KernelParam blob(std::size_t bytes) { return {bytes, 8, ".b8[" + std::to_string(bytes) + "]", "", ""}; }

class PlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    spec_ = problem::load_problem(std::string(PKB_SOURCE_DIR) + "/problems/001_allreduce");
    target_.spec = &spec_;
    target_.world = 4;
    target_.dtype = DType::bf16;
    target_.dims = spec_.test_dims;  // M = 4, N = 8
    // allreduce(x, peers(x), y, signals, n): the shape of a typical candidate.
    target_.kernels = {{"allreduce", {u64(), blob(64), u64(), blob(72), u32()}}, {"scale", {u64(), f32()}}};
  }

  std::vector<ResolvedPlan> resolve(const std::string& json) {
    return resolve_all_ranks(*parse_plan(json), target_);
  }

  /// The PlanError message of a plan that must be refused.
  std::string error_of(const std::string& json) {
    try {
      resolve(json);
    } catch (const PlanError& e) {
      return e.what();
    }
    ADD_FAILURE() << "plan was accepted: " << json;
    return "";
  }

  problem::ProblemSpec spec_;
  PlanTarget target_;
};

/// A kernel step of the fixture's allreduce kernel, with the given extra fields.
inline std::string allreduce_step(const std::string& extra = "") {
  return R"J({"op": "kernel", "kernel": "allreduce", "grid": ["ceil_div(M * N, 256)"], "block": [256],
             "args": ["x", "peers(x)", "y", "signals", "u32(M * N)"])J" +
         (extra.empty() ? "" : ", " + extra) + "}";
}

}  // namespace pkb::plan
