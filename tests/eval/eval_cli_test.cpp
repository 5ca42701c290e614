// `pkb eval` end to end on a machine without a GPU: the simulated node judges the allreduce example
// correct (and says nothing was timed), --device gpu stops at `compiled` and says a GPU is needed;
// every earlier failure has its status, message and exit code; two evals of one source with
// different plans at once each keep their own plan.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <thread>

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

TEST(EvalCli, TheAllreduceExampleIsJudgedOnTheSimulatedNode) {
  const PkbRun run = run_pkb("eval 1 " + kExample + " --world 4 --no-cache --json");
  const auto doc = nlohmann::json::parse(run.out);
  if (has_gpu(doc)) GTEST_SKIP() << "a GPU is visible: the gpu tests cover this example";
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(doc.at("status"), "correct") << doc.at("message");
  EXPECT_EQ(doc.at("message"), "judged on the simulated node: correct in every trial and after repeated "
                               "calls; nothing was timed");
  EXPECT_EQ(doc.at("dims"), nlohmann::json({{"M", 4}, {"N", 8}})) << "the simulated node judges at test dims";
  EXPECT_TRUE(doc.at("target").at("sim").get<bool>());
  EXPECT_TRUE(doc.at("run").at("device").at("simulated").get<bool>());
  EXPECT_FALSE(doc.at("run").contains("timing"));
  EXPECT_EQ(doc.at("run").at("trials").size(), 5u);
  EXPECT_NE(doc.at("run").at("trials")[1].at("schedule").get<std::string>().find("rank order"), std::string::npos);
}

TEST(EvalCli, TrialsRunAtTheTestDimsAndTwoDrawnShapesUnlessDimsPinsOne) {
  const PkbRun run = run_pkb("eval 1 " + kExample + " --world 2 --json");
  const auto doc = nlohmann::json::parse(run.out);
  if (has_gpu(doc)) GTEST_SKIP() << "a GPU is visible: it judges at the bench dims";
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto& shapes = doc.at("shapes");
  ASSERT_EQ(shapes.size(), 3u) << shapes;
  EXPECT_EQ(shapes[0].at("kind"), "main");
  EXPECT_EQ(shapes[0].at("trials"), 3);  // 5 trials spread: 3 at the test dims, one per drawn shape
  EXPECT_EQ(shapes[1].at("kind"), "large");
  EXPECT_LE(shapes[1].at("num_sms").get<int>(), 2);
  const auto& trials = doc.at("run").at("trials");
  ASSERT_EQ(trials.size(), 5u);
  EXPECT_EQ(trials[0].at("shape"), "M=4 N=8");
  EXPECT_NE(trials[3].at("shape"), "M=4 N=8");
  const PkbRun pinned = run_pkb("eval 1 " + kExample + " --world 2 --dims test --json");
  EXPECT_EQ(nlohmann::json::parse(pinned.out).at("shapes").size(), 1u);
}

TEST(EvalCli, APlanThatFitsOnlyTheTestDimsIsAPlanErrorNamingTheBenchDims) {
  // Shared memory that grows with M x N: 64 bytes at the test dims, 2 MiB at the bench dims.
  const std::string mutant = std::string(PKB_SOURCE_DIR) + "/tests/sim/mutants/001_allreduce.5.md";
  for (const std::string device : {"sim", "gpu"}) {
    const PkbRun run = run_pkb("eval 1 " + mutant + " --world 2 --dims test --json --device " + device);
    const auto doc = nlohmann::json::parse(run.out);
    EXPECT_EQ(doc.at("status"), "plan_error") << device;
    EXPECT_EQ(doc.at("message").get<std::string>().rfind(
                  "at bench dims M=1024 N=1024: plan: steps[0].shared_bytes: 2097152 bytes of shared memory", 0),
              0u)
        << doc.at("message");
  }
}

TEST(EvalCli, WithDeviceGpuAndNoGpuTheExampleStopsAtCompiled) {
  const PkbRun run = run_pkb("eval 1 " + kExample + " --world 4 --dims test --no-cache --json --device gpu");
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
  const PkbRun run = run_pkb("eval allreduce " + kExample + " --world 2 --device gpu");
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

TEST(EvalCli, TwoEvalsOfOneSourceWithDifferentPlansAtOnceKeepTheirOwnPlans) {
  // The same CUDA (one compile key) with a right plan and a wrong one (half the elements), judged
  // at the same moment: each verdict must follow its own plan, as in a run whose samples differ
  // only in their plans.
  const std::string dir = make_temp_dir("eval_cli_plans");
  std::ifstream in(kExample);
  const std::string example((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string half = example;
  const std::string count = "\"i64(M * N)\"";
  ASSERT_NE(half.find(count), std::string::npos);
  half.replace(half.find(count), count.size(), "\"i64(M * N / 2)\"");
  const std::string right = write_answer(dir, "right.md", example), wrong = write_answer(dir, "half.md", half);
  for (int round = 0; round < 3; ++round) {
    PkbRun a, b;
    std::thread first([&] { a = run_pkb("eval 1 " + right + " --world 2 --trials 1 --json"); });
    std::thread second([&] { b = run_pkb("eval 1 " + wrong + " --world 2 --trials 1 --json"); });
    first.join();
    second.join();
    EXPECT_EQ(nlohmann::json::parse(a.out).at("status"), "correct") << "round " << round << ": " << a.out;
    EXPECT_EQ(nlohmann::json::parse(b.out).at("status"), "incorrect") << "round " << round << ": " << b.out;
  }
}

TEST(EvalCli, ACompileErrorIsPrintedOnce) {
  const std::string dir = make_temp_dir("eval_cli_once");
  const std::string answer = write_answer(
      dir, "compile.md",
      "```cuda\nextern \"C\" __global__ void k(int* y) { y[0] = undefined_name; }\n```\n```json\n"
      R"J({"steps": [{"op": "kernel", "kernel": "k", "grid": 1, "block": 1, "args": ["y"]}]})J"
      "\n```\n");
  const PkbRun run = run_pkb("eval 1 " + answer + " --world 2 --dims test --no-cache");
  EXPECT_EQ(run.exit_code, 1);
  const std::string both = run.out + run.err;
  const std::string line = "error: identifier \"undefined_name\" is undefined";
  const auto first = both.find(line);
  ASSERT_NE(first, std::string::npos) << both;
  EXPECT_EQ(both.find(line, first + 1), std::string::npos) << both;
  EXPECT_NE(run.err.find("^"), std::string::npos) << "the caret line still reaches stderr: " << run.err;
}

// One source, written with __nv_bfloat16 instead of pkb::P: right at bf16, refused at fp32 by the
// parameter type check (before, both reported `compiled`).
TEST(EvalCli, ABf16AnswerRunAtFp32IsAPlanErrorNamingTheParameter) {
  const std::string dir = make_temp_dir("eval_cli_dtype");
  const std::string answer = write_answer(
      dir, "bf16.md",
      "```cuda\nextern \"C\" __global__ void copy_kernel(const __nv_bfloat16* x, __nv_bfloat16* y, long long n) {\n"
      "  for (long long i = threadIdx.x; i < n; i += blockDim.x) y[i] = x[i];\n}\n```\n```json\n"
      R"J({"steps": [{"op": "kernel", "kernel": "copy_kernel", "grid": 1, "block": 256, "args": ["x", "y", "i64(M * N)"]}]})J"
      "\n```\n");
  const PkbRun bf16 = run_pkb("eval 1 " + answer + " --world 2 --dims test --no-cache --json --device gpu");
  const auto bf16_doc = nlohmann::json::parse(bf16.out);
  if (!has_gpu(bf16_doc)) {
    EXPECT_EQ(bf16_doc.at("status"), "compiled") << bf16_doc.at("message");
  }
  const PkbRun fp32 = run_pkb("eval 1 " + answer + " --world 2 --dims test --dtype fp32 --no-cache --json");
  EXPECT_EQ(fp32.exit_code, 1);
  const auto doc = nlohmann::json::parse(fp32.out);
  EXPECT_EQ(doc.at("status"), "plan_error");
  EXPECT_EQ(doc.at("message"),
            "plan: steps[0].args[0]: parameter 'x' of 'copy_kernel' is __nv_bfloat16 const*, but buffer 'x' holds "
            "fp32, not bf16 (__nv_bfloat16) (rank 0 of 2)");
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
  // It copies x to y instead of summing over ranks: wrong, and the simulated node says so.
  EXPECT_EQ(with.exit_code, 1) << with.err;
  EXPECT_EQ(doc.at("status"), "incorrect");
  EXPECT_EQ(doc.at("message").get<std::string>().rfind("trial 1: rank 0 y: ", 0), 0u) << doc.at("message");
}

// The memory model on the command line: a GPU-scope fence between ranks is incorrect and the
// message names the race; a reader that polls without an acquire is correct with a warning in the
// table and in --json; --memory-model sc judges without the check; a bad value is a usage error.
TEST(EvalCli, TheMemoryModelJudgesOrderingAndWarnsOfAMissingAcquire) {
  const std::string ordering = std::string(PKB_SOURCE_DIR) + "/tests/sim/ordering/";
  const PkbRun gpu_fence = run_pkb("eval 1 " + ordering + "001_flag_gpu_fences.md --world 2 --dims test --json");
  const auto racy = nlohmann::json::parse(gpu_fence.out);
  if (has_gpu(racy)) GTEST_SKIP() << "a GPU is visible: the simulated node does not judge";
  EXPECT_EQ(gpu_fence.exit_code, 1);
  EXPECT_EQ(racy.at("status"), "incorrect");
  EXPECT_NE(racy.at("message").get<std::string>().find("data race under the PTX memory model between rank"),
            std::string::npos) << racy.at("message");
  EXPECT_EQ(racy.at("run").at("simulation").at("memory_model"), "ptx");

  const PkbRun sc = run_pkb("eval 1 " + ordering + "001_flag_gpu_fences.md --world 2 --dims test --memory-model sc --json");
  const auto unchecked = nlohmann::json::parse(sc.out);
  EXPECT_EQ(sc.exit_code, 0) << sc.err;
  EXPECT_EQ(unchecked.at("status"), "correct");
  EXPECT_EQ(unchecked.at("run").at("simulation").at("memory_model"), "sc");

  const std::string no_acquire = ordering + "001_flag_reader_no_acquire.md --world 2 --dims test";
  const auto warned = nlohmann::json::parse(run_pkb("eval 1 " + no_acquire + " --json").out);
  EXPECT_EQ(warned.at("status"), "correct");
  ASSERT_FALSE(warned.at("warnings").empty());
  EXPECT_EQ(warned["warnings"][0].get<std::string>().rfind("consumer without acquire under the PTX memory model", 0), 0u);
  const PkbRun table = run_pkb("eval 1 " + no_acquire);
  EXPECT_NE(table.out.find("\nwarning  consumer without acquire"), std::string::npos) << table.out;

  EXPECT_EQ(run_pkb("eval 1 " + kExample + " --memory-model tso").err, "pkb: error: --memory-model tso: expected ptx or sc\n");
}

TEST(EvalCli, BadFlagsAreUsageErrors) {
  EXPECT_EQ(run_pkb("eval 1 " + kExample + " --world 3").err, "pkb: error: --world 3: 001_allreduce allows 2, 4, 8\n");
  EXPECT_EQ(run_pkb("eval 1 /nonexistent/answer.md").err, "pkb: error: /nonexistent/answer.md: no such file\n");
  EXPECT_EQ(run_pkb("eval 1 " + kExample + " --plan /nonexistent/p.json").exit_code, 2);
}

}  // namespace
}  // namespace pkb::test
