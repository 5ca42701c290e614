// Every model-style answer in problems/examples/ is a valid answer: the extractor finds exactly one
// cuda and one json block, NVRTC compiles the source cleanly, and every kernel step of the plan
// names a compiled kernel with an argument list matching its parameters.
// Resolving each plan against its problem is the plan parser's test (tests/plan/).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/compile/compile.h"
#include "src/extract/extract.h"
#include "tests/examples/example_files.h"
#include "tests/examples/plan_args_check.h"

namespace pkb::examples_test {
namespace {

namespace fs = std::filesystem;

TEST(Examples, HoldTheFourWorkedAnswers) {
  std::vector<std::string> names;
  for (const fs::path& file : example_files()) names.push_back(file.filename().string());
  for (const char* expected :
       {"001_allreduce_peer_loads.md", "002_allgather_peer_stores.md",
        "007_reducescatter_peer_loads.md", "016_gemm_reducescatter_overlap.md"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
}

TEST(Examples, ArgBytesFollowTheAbi) {
  EXPECT_EQ(arg_bytes("peers(x)"), 64u);
  EXPECT_EQ(arg_bytes("signals"), 72u);
  EXPECT_EQ(arg_bytes("ctx"), 16u);
  EXPECT_EQ(arg_bytes("x[rank * M]"), 8u);
  EXPECT_EQ(arg_bytes("i32(M / W)"), 4u);
  EXPECT_EQ(arg_bytes("f64(alpha)"), 8u);
}

TEST(Examples, APlanWithTheWrongArgumentsIsCaught) {
  // The control for the check below: a kernel taking (pointer, Peers) launched with one argument
  // of the wrong size must fail it.
  const compile::CompileResult result =
      compile::compile_cuda("extern \"C\" __global__ void k(float* out, pkb::Peers<float> in) {}\n",
                            compile_options("sm_90a", false, 2));
  ASSERT_TRUE(result.ok) << result.log;
  const nlohmann::json plan = nlohmann::json::parse(
      R"({"steps": [{"op": "kernel", "kernel": "k", "grid": [1], "block": [1],
                     "args": ["out", "signals"]}]})");
  EXPECT_NONFATAL_FAILURE(expect_plan_matches_kernels(plan, result), "arg");
}

class ExampleAnswer : public ::testing::TestWithParam<fs::path> {};

TEST_P(ExampleAnswer, CompilesAndMatchesItsPlan) {
  const std::string text = read_text(GetParam());
  EXPECT_NE(text.find("`pkb::P`"), std::string::npos) << "the paragraph says it is written for any P";
  const extract::Extraction answer = extract::extract_solution(text, /*truncated=*/false);
  ASSERT_TRUE(answer.ok()) << answer.message;
  EXPECT_EQ(answer.cuda_blocks, 1);
  EXPECT_EQ(answer.json_blocks, 1);
  const nlohmann::json plan = nlohmann::json::parse(answer.plan_json);
  // sm_90a only: every pkb.cuh function is also compiled for sm_100a by pkb_header_test.
  const compile::CompileResult result =
      compile::compile_cuda(answer.cuda, compile_options("sm_90a", false, 8));
  ASSERT_TRUE(result.ok) << result.log;
  EXPECT_EQ(result.log.find("warning"), std::string::npos) << result.log;
  EXPECT_NE(result.log.find("0 bytes stack frame"), std::string::npos)
      << "an example should not copy its structs to local memory\n"
      << result.log;
  expect_plan_matches_kernels(plan, result);
}

INSTANTIATE_TEST_SUITE_P(File, ExampleAnswer, ::testing::ValuesIn(example_files()),
                         [](const ::testing::TestParamInfo<fs::path>& file) {
                           return file.param.stem().string();
                         });

}  // namespace
}  // namespace pkb::examples_test
