// See plan_args_check.h.
#include "tests/examples/plan_args_check.h"

#include <gtest/gtest.h>

#include "harness/plan/plan_parsed.h"

namespace pkb::examples_test {
namespace {

const compile::KernelSignature* find_kernel(const compile::CompileResult& result,
                                            const std::string& name) {
  for (const compile::KernelSignature& kernel : result.kernels)
    if (kernel.name == name) return &kernel;
  return nullptr;
}

}  // namespace

std::size_t arg_bytes(const std::string& arg) {
  // The plan's own argument parser and size table, so this check and pkb eval cannot disagree.
  plan::ResolvedArg resolved;
  resolved.kind = plan::parse_arg(arg, "args").kind;
  return resolved.bytes();
}

void expect_plan_matches_kernels(const nlohmann::json& plan, const compile::CompileResult& result) {
  for (const auto& [key, value] : plan.items())
    EXPECT_TRUE(key == "buffers" || key == "steps") << "unknown top-level key " << key;
  int kernel_steps = 0;
  for (const nlohmann::json& step : plan.at("steps")) {
    if (step.at("op") != "kernel") continue;
    ++kernel_steps;
    const std::string name = step.at("kernel");
    const compile::KernelSignature* kernel = find_kernel(result, name);
    if (kernel == nullptr) {
      ADD_FAILURE() << "the plan launches " << name << ", which the source lacks";
      continue;
    }
    const nlohmann::json& args = step.at("args");
    if (args.size() != kernel->params.size()) {
      ADD_FAILURE() << name << " takes " << kernel->params.size() << " parameters, the plan passes "
                    << args.size();
      continue;
    }
    for (std::size_t i = 0; i < args.size(); ++i)
      EXPECT_EQ(arg_bytes(args[i]), kernel->params[i].size) << name << " arg " << args[i];
  }
  EXPECT_GT(kernel_steps, 0) << "a worked answer launches at least one kernel";
}

}  // namespace pkb::examples_test
