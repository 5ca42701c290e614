// `pkb eval` end to end on a machine without a GPU: the allreduce example ends `compiled` with
// exit 0 and says a GPU is needed; every earlier failure has its status, message and exit code.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/e2e/run_pkb.h"

namespace pkb::test {
namespace {

const std::string kExample = std::string(PKB_SOURCE_DIR) + "/problems/examples/001_allreduce_peer_loads.md";

std::string write_answer(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

bool has_gpu(const nlohmann::json& doc) { return doc.at("target").at("gpu").get<bool>(); }

TEST(EvalCli, TheAllreduceExampleCompilesAndNeedsAGpu) {
  const PkbRun run = run_pkb("eval 1 " + kExample + " --world 4 --dims test --no-cache --json");
  const auto doc = nlohmann::json::parse(run.out);
  if (has_gpu(doc)) GTEST_SKIP() << "a GPU is visible: the gpu tests cover this example";
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(doc.at("status"), "compiled");
  EXPECT_NE(doc.at("message").get<std::string>().find("running it needs an NVIDIA GPU"), std::string::npos);
  EXPECT_EQ(doc.at("target").at("arch"), "sm_90a");
  EXPECT_TRUE(doc.at("compile").at("ok").get<bool>());
  EXPECT_FALSE(doc.at("compile").at("kernels").empty());
  EXPECT_GT(doc.at("plan_steps").get<int>(), 0);
}

TEST(EvalCli, TheTableSaysCompiledInWords) {
  const PkbRun run = run_pkb("eval allreduce " + kExample + " --world 2");
  if (run.out.find("(no GPU)") == std::string::npos) GTEST_SKIP() << "a GPU is visible";
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("compiled"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("needs an NVIDIA GPU"), std::string::npos) << run.out;
}

TEST(EvalCli, EachFailureHasItsStatusAndExitOne) {
  const std::string dir = make_temp_dir("eval_cli");
  const std::string good_cuda =
      "extern \"C\" __global__ void copy_kernel(const __nv_bfloat16* x, __nv_bfloat16* y, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = x[i];\n}\n";
  const std::string good_plan =
      R"J({"steps": [{"op": "kernel", "kernel": "copy_kernel", "grid": ["ceil_div(M * N, 256)"], "block": [256],
                     "args": ["x", "y", "i32(M * N)"]}]})J";
  struct Case {
    std::string name, answer, status, message_part;
  };
  const std::vector<Case> cases = {
      {"format.md", "```cuda\n" + good_cuda + "```\nno plan here\n", "format_error", "missing_json_block"},
      {"compile.md", "```cuda\nextern \"C\" __global__ void k() { undefined_name = 1; }\n```\n```json\n" + good_plan + "\n```\n",
       "compile_error", "undefined_name"},
      {"plan.md", "```cuda\n" + good_cuda + "```\n```json\n" + std::string(R"J({"steps": [{"op": "kernel", "kernel": "copy_kernl", "grid": 1, "block": 1, "args": []}]})J") + "\n```\n",
       "plan_error", "did you mean 'copy_kernel'?"},
  };
  for (const auto& c : cases) {
    const PkbRun run = run_pkb("eval 1 " + write_answer(dir, c.name, c.answer) + " --world 2 --dims test --no-cache --json");
    EXPECT_EQ(run.exit_code, 1) << c.name << ": " << run.err;
    const auto doc = nlohmann::json::parse(run.out);
    EXPECT_EQ(doc.at("status"), c.status) << c.name;
    EXPECT_NE(doc.at("message").get<std::string>().find(c.message_part), std::string::npos)
        << c.name << ": " << doc.at("message");
  }
}

TEST(EvalCli, ASourceWithASeparatePlanFile) {
  const std::string dir = make_temp_dir("eval_cli_cu");
  const std::string source = write_answer(dir, "k.cu",
      "extern \"C\" __global__ void copy_kernel(const __nv_bfloat16* x, __nv_bfloat16* y, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = x[i];\n}\n");
  const std::string plan = write_answer(dir, "plan.json",
      R"J({"steps": [{"op": "kernel", "kernel": "copy_kernel", "grid": ["ceil_div(M * N, 256)"], "block": [256], "args": ["x", "y", "i32(M * N)"]}]})J");
  const PkbRun without = run_pkb("eval 1 " + source + " --world 2");
  EXPECT_EQ(without.exit_code, 2);
  EXPECT_EQ(without.err, "pkb: error: " + source + ": a CUDA source needs its plan: add --plan FILE.json\n");
  const PkbRun with = run_pkb("eval 1 " + source + " --plan " + plan + " --world 2 --dims test --json");
  const auto doc = nlohmann::json::parse(with.out);
  if (has_gpu(doc)) GTEST_SKIP() << "a GPU is visible";
  EXPECT_EQ(with.exit_code, 0) << with.err;
  EXPECT_EQ(doc.at("status"), "compiled");
}

TEST(EvalCli, GpuScopeOrderingOnPeerMemoryIsAWarning) {
  const std::string dir = make_temp_dir("eval_cli_scope");
  const std::string answer = write_answer(dir, "fence.md",
      "```cuda\nextern \"C\" __global__ void sum(pkb::Peers<const __nv_bfloat16> x, __nv_bfloat16* y, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  __threadfence();\n"
      "  if (i < n) y[i] = __float2bfloat16(__bfloat162float(x[0][i]) + __bfloat162float(x[1][i]));\n}\n```\n"
      "```json\n{\"steps\": [{\"op\": \"kernel\", \"kernel\": \"sum\", \"grid\": [\"ceil_div(M * N, 256)\"], "
      "\"block\": [256], \"args\": [\"peers(x)\", \"y\", \"i32(M * N)\"]}]}\n```\n");
  const PkbRun run = run_pkb("eval 1 " + answer + " --world 2 --dims test --json");
  const auto doc = nlohmann::json::parse(run.out);
  ASSERT_EQ(doc.at("warnings").size(), 1u) << run.out;
  EXPECT_NE(doc["warnings"][0].get<std::string>().find("kernel 'sum' reaches other ranks' memory but orders it at GPU scope"),
            std::string::npos);
}

TEST(EvalCli, BadFlagsAreUsageErrors) {
  EXPECT_EQ(run_pkb("eval 1 " + kExample + " --world 3").err, "pkb: error: --world 3: 001_allreduce allows 2, 4, 8\n");
  EXPECT_EQ(run_pkb("eval 1 /nonexistent/answer.md").err, "pkb: error: /nonexistent/answer.md: no such file\n");
  EXPECT_EQ(run_pkb("eval 1 " + kExample + " --plan /nonexistent/p.json").exit_code, 2);
}

}  // namespace
}  // namespace pkb::test
