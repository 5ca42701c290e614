// extract_solution and the fence scanner: each way an answer fails is its own reason, and the
// chosen blocks are the last closed ones of the visible answer.
#include "src/extract/extract.h"

#include <gtest/gtest.h>

#include <set>

#include "src/extract/fence_scanner.h"

namespace pkb::extract {
namespace {

const std::string kKernel = "extern \"C\" __global__ void k(float* y) { y[0] = 1; }\n";
const std::string kPlan = "{\"steps\": []}\n";

std::string block(const std::string& language, const std::string& body,
                  const std::string& fence = "```") {
  return fence + language + "\n" + body + fence + "\n";
}

std::string good_answer() {
  return "Here it is.\n" + block("cuda", kKernel) + "And the plan:\n" + block("json", kPlan);
}

TEST(FenceScanner, FindsBlocksWithInfoAndClosedState) {
  const auto blocks = scan_fenced_blocks("a\n```CUDA title=\"k.cu\"\nx\n```\n~~~json\n{}\n");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].language, "cuda");
  EXPECT_EQ(blocks[0].info, "CUDA title=\"k.cu\"");
  EXPECT_EQ(blocks[0].body, "x\n");
  EXPECT_TRUE(blocks[0].closed);
  EXPECT_EQ(blocks[0].first_line, 2);
  EXPECT_FALSE(blocks[1].closed);
  EXPECT_EQ(blocks[1].body, "{}\n");
}

TEST(FenceScanner, LongerFenceHoldsShorterFencesAsBody) {
  const auto blocks = scan_fenced_blocks("````cuda\n```\ninner\n```\n````\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_TRUE(blocks[0].closed);
  EXPECT_EQ(blocks[0].body, "```\ninner\n```\n");
}

TEST(FenceScanner, TildeFenceIsNotClosedByBackticks) {
  const auto blocks = scan_fenced_blocks("~~~cuda\n```\n~~~\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].body, "```\n");
}

TEST(FenceScanner, HandlesCrlfAndCrLineEnds) {
  const auto crlf = scan_fenced_blocks("```cuda\r\nx\r\n```\r\n");
  ASSERT_EQ(crlf.size(), 1u);
  EXPECT_EQ(crlf[0].body, "x\n");
  const auto cr = scan_fenced_blocks("```json\r{}\r```\r");
  ASSERT_EQ(cr.size(), 1u);
  EXPECT_TRUE(cr[0].closed);
}

TEST(FenceScanner, IgnoresFencesIndentedFourSpacesAndInlineBackticks) {
  EXPECT_TRUE(scan_fenced_blocks("    ```cuda\nx\n    ```\n").empty());
  EXPECT_TRUE(scan_fenced_blocks("```a`b\n").empty());
  EXPECT_EQ(scan_fenced_blocks("   ```cuda\nx\n   ```\n").size(), 1u);
}

TEST(FenceScanner, ClosingFenceMustHaveNothingAfterIt) {
  const auto blocks = scan_fenced_blocks("```cuda\nx\n```json\n```\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].body, "x\n```json\n");
}

TEST(StripThinkSpans, RemovesSpansStrayCloseAndUnclosedOpen) {
  EXPECT_EQ(strip_think_spans("a<think>x</think>b<think>y</think>c"), "abc");
  EXPECT_EQ(strip_think_spans("draft ```cuda</think>answer"), "answer");
  EXPECT_EQ(strip_think_spans("answer<think>never closed"), "answer");
  EXPECT_EQ(strip_think_spans("plain"), "plain");
}

TEST(ExtractSolution, FindsCudaAndJson) {
  const auto got = extract_solution(good_answer(), false);
  ASSERT_TRUE(got.ok()) << got.message;
  EXPECT_EQ(got.cuda, kKernel);
  EXPECT_EQ(got.plan_json, kPlan);
  EXPECT_EQ(got.cuda_blocks, 1);
  EXPECT_EQ(got.json_blocks, 1);
  EXPECT_FALSE(got.cuda_alias_used);
}

TEST(ExtractSolution, TakesTheLastClosedBlockOverDraftFragments) {
  const std::string answer =
      block("cuda", "__syncthreads();\n") + block("json", "[1, 2]\n") + good_answer();
  const auto got = extract_solution(answer, false);
  ASSERT_TRUE(got.ok()) << got.message;
  EXPECT_EQ(got.cuda, kKernel);
  EXPECT_EQ(got.plan_json, kPlan);
  EXPECT_EQ(got.cuda_blocks, 2);
  EXPECT_EQ(got.json_blocks, 2);
}

TEST(ExtractSolution, AcceptsCuAliasAndRecordsIt) {
  const auto got = extract_solution(block("cu", kKernel) + block("json", kPlan), false);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(got.cuda_alias_used);
}

TEST(ExtractSolution, RepeatedIdenticalBlockIsNotAmbiguous) {
  EXPECT_TRUE(extract_solution(block("cuda", kKernel) + good_answer(), false).ok());
}

TEST(ExtractSolution, IgnoresBlocksInsideThinkSpans) {
  const std::string answer = "<think>\n" +
                             block("cuda", "extern \"C\" __global__ void draft() {}\n") +
                             "</think>\n" + good_answer();
  const auto got = extract_solution(answer, false);
  ASSERT_TRUE(got.ok()) << got.message;
  EXPECT_EQ(got.cuda, kKernel);
  EXPECT_EQ(got.cuda_blocks, 1);
}

struct FailureCase {
  const char* name;
  std::string answer;
  bool truncated;
  FormatReason reason;
  std::string message;
};

TEST(ExtractSolution, EachFailureHasItsOwnReasonAndMessage) {
  const std::vector<FailureCase> cases = {
      {"empty", " \n", false, FormatReason::empty_answer, "the answer is empty"},
      {"empty_truncated", "", true, FormatReason::truncated,
       "truncated (max tokens) before any visible answer"},
      {"think_only", "<think>```cuda\nx\n```", false, FormatReason::empty_answer,
       "the answer is empty"},
      {"truncated_in_cuda", "```cuda\n" + kKernel, true, FormatReason::truncated,
       "truncated (max tokens) inside an unclosed ```cuda block"},
      {"truncated_no_json", block("cuda", kKernel) + "Now the plan", true, FormatReason::truncated,
       "truncated (max tokens)"},
      {"unclosed_json", block("cuda", kKernel) + "```json\n{}\n", false,
       FormatReason::unclosed_fence, "the ```json block opened on line 4 is never closed"},
      {"unclosed_untagged", block("json", kPlan) + "```\n" + kKernel, false,
       FormatReason::unclosed_fence, "the ``` block opened on line 4 is never closed"},
      {"fence_inside_untagged", "```\n" + block("cuda", kKernel) + block("json", kPlan), false,
       FormatReason::missing_cuda_block, "no closed ```cuda block (2 fenced blocks in the answer)"},
      {"missing_cuda", "text\n" + block("json", kPlan), false, FormatReason::missing_cuda_block,
       "no closed ```cuda block (1 fenced blocks in the answer)"},
      {"cpp_is_not_cuda", block("cpp", kKernel) + block("json", kPlan), false,
       FormatReason::missing_cuda_block, "no closed ```cuda block (2 fenced blocks in the answer)"},
      {"missing_json", block("cuda", kKernel), false, FormatReason::missing_json_block,
       "no closed ```json block (1 fenced blocks in the answer)"},
      {"two_kernels", block("cuda", "extern \"C\" __global__ void a() {}\n") + good_answer(), false,
       FormatReason::multiple_cuda_blocks, "2 different ```cuda blocks define kernels; give one"},
      {"two_plans", block("json", "{\"steps\": [1]}\n") + good_answer(), false,
       FormatReason::multiple_json_blocks, "2 different ```json blocks hold a plan; give one"},
      {"bad_json", block("cuda", kKernel) + block("json", "{\"steps\": [],\n  // c\n}\n"), false,
       FormatReason::invalid_json,
       "the ```json block (line 4) does not parse: at line 2, column 3"},
  };
  for (const auto& test : cases) {
    const auto got = extract_solution(test.answer, test.truncated);
    ASSERT_FALSE(got.ok()) << test.name;
    EXPECT_EQ(format_reason_name(*got.error), format_reason_name(test.reason)) << test.name;
    EXPECT_EQ(got.message, test.message) << test.name;
  }
}

TEST(ExtractSolution, TruncatedAfterCompleteBlocksIsAccepted) {
  EXPECT_TRUE(extract_solution(good_answer() + "Some closing words that got cu", true).ok());
}

TEST(ExtractSolution, ReasonNamesAreDistinct) {
  std::set<std::string_view> names;
  for (int value = 0; value <= static_cast<int>(FormatReason::invalid_json); ++value)
    names.insert(format_reason_name(static_cast<FormatReason>(value)));
  EXPECT_EQ(names.size(), static_cast<std::size_t>(FormatReason::invalid_json) + 1);
}

}  // namespace
}  // namespace pkb::extract
