// compile_error_excerpt on NVRTC logs: which lines are kept, the limits and the cut note.
#include "src/feedback/compile_errors.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/feedback/feedback_fixture.h"

namespace pkb::feedback {
namespace {

std::string error_block(int line) {
  return "candidate.cu(" + std::to_string(line) + "): error: identifier \"x" +
         std::to_string(line) + "\" is undefined\n    y[i] = x" + std::to_string(line) +
         ";\n           ^\n\n";
}

TEST(CompileErrors, KeepsFiveErrorsWithSourceAndCaretLines) {
  const std::string excerpt = compile_error_excerpt(data_text("compile_error.log"));
  EXPECT_EQ(excerpt.substr(0, excerpt.find("candidate.cu(7)")),
            "candidate.cu(4): error: class \"pkb::SignalPad\" has no member \"world_size\"\n"
            "    const int world = signals.world_size;\n"
            "                              ^\n");
  // The source line "cudaError_t status = ..." is context, not a sixth error.
  EXPECT_TRUE(contains(excerpt,
                       "candidate.cu(10): error: identifier \"cudaGetLastErrorr\" is "
                       "undefined\n    cudaError_t status = cudaGetLastErrorr();\n"));
  EXPECT_TRUE(contains(excerpt, "candidate.cu(11)"));
  EXPECT_TRUE(lacks(excerpt, "candidate.cu(12)"));
  EXPECT_TRUE(contains(excerpt, "(2 more errors not shown)\n"));
  EXPECT_TRUE(lacks(excerpt, "detected in the compilation"));
}

TEST(CompileErrors, NoCutNoteWhenEverythingFits) {
  const std::string excerpt = compile_error_excerpt(error_block(3) +
                                                    "1 error detected in the "
                                                    "compilation of \"candidate.cu\".\n");
  EXPECT_EQ(excerpt,
            "candidate.cu(3): error: identifier \"x3\" is undefined\n    y[i] = x3;\n"
            "           ^\n");
}

TEST(CompileErrors, OneMoreErrorIsSingular) {
  std::string log;
  for (int line = 1; line <= 6; ++line) log += error_block(line);
  EXPECT_TRUE(contains(compile_error_excerpt(log), "(1 more error not shown)\n"));
}

TEST(CompileErrors, LongLinesAreCutAndLinesAreCapped) {
  const std::string excerpt =
      compile_error_excerpt("candidate.cu(1): error: " + std::string(500, 'a') + "\n");
  EXPECT_EQ(excerpt, "candidate.cu(1): error: " + std::string(276, 'a') + " [...]\n");

  // Diagnostics outside the candidate (ptxas) come without context lines; five are kept.
  std::string log;
  for (int note = 0; note < 60; ++note)
    log += "ptxas error   : note " + std::to_string(note) + "\n";
  const std::string capped = compile_error_excerpt(log);
  EXPECT_EQ(std::count(capped.begin(), capped.end(), '\n'), 6);  // five errors and the cut note
  EXPECT_TRUE(contains(capped, "ptxas error   : note 4\n(55 more errors not shown)\n"));
}

TEST(CompileErrors, HeaderErrorsLoseTheirPathAndSource) {
  const std::string excerpt = compile_error_excerpt(
      "/opt/pkb/harness/include/pkb/signal.cuh(30): error: no instance of function template\n"
      "    internal_helper(pad, rank);\n    ^\n\n"
      "[... 120 bytes cut]\n" +
      error_block(9));
  EXPECT_EQ(excerpt, "pkb/signal.cuh(30): error: no instance of function template\n" +
                         error_block(9).substr(0, error_block(9).size() - 1));
}

TEST(CompileErrors, StopsAtTheWorkersPartAndIgnoresLogsWithoutErrors) {
  EXPECT_EQ(compile_error_excerpt(error_block(2) + "--- worker ---\nerror: seed 12345\n"),
            compile_error_excerpt(error_block(2)));
  EXPECT_EQ(compile_error_excerpt("ptxas info    : 0 bytes gmem\n"), "");
  EXPECT_EQ(compile_error_excerpt(""), "");
}

}  // namespace
}  // namespace pkb::feedback
