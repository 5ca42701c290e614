// docs/ABI.md goes into every prompt, so its worked answers must stay valid: each ```cuda block
// compiles (with multicast, which the second one needs) and the ```json block after it launches
// that block's kernels with matching argument lists.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/extract/fence_scanner.h"
#include "tests/examples/example_files.h"
#include "tests/examples/plan_args_check.h"

namespace pkb::examples_test {
namespace {

TEST(AbiDoc, WorkedAnswersCompileAndMatchTheirPlans) {
  const std::string text = read_text(PKB_SOURCE_DIR "/docs/ABI.md");
  std::vector<std::string> sources, plans;
  for (const extract::FencedBlock& block : extract::scan_fenced_blocks(text)) {
    ASSERT_TRUE(block.closed) << "line " << block.first_line;
    if (block.language == "cuda") sources.push_back(block.body);
    if (block.language == "json") plans.push_back(block.body);
  }
  ASSERT_EQ(sources.size(), 2u);
  ASSERT_EQ(plans.size(), sources.size()) << "one plan per source";
  for (std::size_t i = 0; i < sources.size(); ++i) {
    SCOPED_TRACE("worked answer " + std::to_string(i + 1));
    const compile::CompileResult result =
        compile::compile_cuda(sources[i], compile_options("sm_90a", true, 8));
    ASSERT_TRUE(result.ok) << result.log;
    EXPECT_EQ(result.log.find("warning"), std::string::npos) << result.log;
    expect_plan_matches_kernels(nlohmann::json::parse(plans[i]), result);
  }
}

}  // namespace
}  // namespace pkb::examples_test
