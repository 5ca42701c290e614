// make_feedback for each status a record can end with, on the example records of docs/RESULTS.md
// rendered through prompts/feedback.md: the key content, the scope and the note.
#include "src/feedback/feedback.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "tests/feedback/feedback_fixture.h"

namespace pkb::feedback {
namespace {

TEST(Feedback, FormatErrorGivesTheReasonAndMessage) {
  const Feedback feedback = feedback_for(load_record("format_error"));
  EXPECT_EQ(feedback.scope, "format");
  EXPECT_EQ(feedback.note, "");
  EXPECT_TRUE(contains(feedback.text, "format_error: the answer had no usable ```cuda block"));
  EXPECT_TRUE(contains(feedback.text, "format reason: missing_cuda_block\n"));
  EXPECT_TRUE(contains(feedback.text,
                       "message: no closed ```cuda block (0 fenced blocks in the answer)\n"));
  EXPECT_TRUE(contains(feedback.text, "blocks found: 0 ```cuda, 0 ```json\n"));
}

TEST(Feedback, CompileErrorShowsTheFirstErrorsWithTheirSourceLines) {
  const Feedback feedback =
      feedback_for(load_record("compile_error"), data_text("compile_error.log"));
  EXPECT_EQ(feedback.scope, "compile");
  EXPECT_EQ(feedback.note, "");
  EXPECT_TRUE(contains(feedback.text, "compile_error: NVRTC rejected the CUDA source\n"));
  EXPECT_TRUE(contains(feedback.text,
                       "candidate.cu(4): error: class \"pkb::SignalPad\" has no member "
                       "\"world_size\"\n    const int world = signals.world_size;\n"
                       "                              ^\n"));
  EXPECT_TRUE(contains(feedback.text,
                       "candidate.cu(11): error: class \"pkb::SignalPad\" has "
                       "no member \"barrier_all\""));
  EXPECT_TRUE(lacks(feedback.text, "candidate.cu(12)"));  // the sixth of seven errors
  EXPECT_TRUE(contains(feedback.text, "(2 more errors not shown)\n"));
  EXPECT_TRUE(lacks(feedback.text, "errors detected in the compilation"));
}

TEST(Feedback, CompileErrorFallsBackToTheRecordsLog) {
  const Feedback feedback = feedback_for(load_record("compile_error"));
  EXPECT_TRUE(contains(feedback.text, "candidate.cu(4): error: class \"pkb::SignalPad\""));
  EXPECT_TRUE(contains(feedback.text, "    const int world = signals.world_size;\n"));
}

TEST(Feedback, CompileTimeoutWithoutAnErrorLineGivesTheMessage) {
  nlohmann::json record = load_record("compile_error");
  record["compile"]["log"] = "";
  record["message"] = "compile timed out after 60 s";
  EXPECT_TRUE(contains(feedback_for(record).text, "message: compile timed out after 60 s\n"));
}

TEST(Feedback, PlanErrorGivesThePlanMessage) {
  const Feedback feedback = feedback_for(load_record("plan_error"));
  EXPECT_EQ(feedback.scope, "plan");
  EXPECT_EQ(feedback.note, "");
  EXPECT_TRUE(contains(feedback.text,
                       "plan error: steps[0].kernel: 'allreduce' is not an extern \"C\" "
                       "__global__ kernel of the source (kernels: allreduce_peer_loads) (rank 0 "
                       "of 8)\n"));
}

TEST(Feedback, CompiledWithoutAGpuSaysWhatWasNotJudged) {
  const Feedback feedback = feedback_for(load_record("compiled"));
  EXPECT_EQ(feedback.scope, "plan");
  EXPECT_EQ(feedback.note,
            "not run on a GPU: no GPU is visible: CUDA driver version is insufficient for CUDA runtime "
            "version");
  EXPECT_TRUE(contains(feedback.text,
                       "the source compiled for sm_90a and the plan fits the "
                       "problem (1 plan step); correctness and speed were not "
                       "judged\n"));
  EXPECT_TRUE(contains(feedback.text, "Not judged further: not run on a GPU: no GPU is visible"));
}

TEST(Feedback, RuntimeErrorNamesRankStepAndCudaError) {
  nlohmann::json record = load_record("runtime_error");
  Feedback feedback = feedback_for(record);
  EXPECT_EQ(feedback.scope, "run");
  EXPECT_TRUE(
      contains(feedback.text, "kernel/step: step 0\nCUDA error: cudaErrorIllegalAddress\n"));
  EXPECT_TRUE(contains(feedback.text,
                       "message: an illegal memory access was encountered "
                       "(cudaErrorIllegalAddress) in step 0\n"));

  record["message"] =
      "trial 1: rank 3: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was "
      "encountered (harness/cuda/cuda_device_work.cpp:212)";
  feedback = feedback_for(record);
  EXPECT_TRUE(contains(feedback.text,
                       "rank: 3\nCUDA error: CUDA_ERROR_ILLEGAL_ADDRESS\n"
                       "stage: trial 1\nmessage: trial 1: rank 3: "
                       "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was "
                       "encountered\n"));
  EXPECT_TRUE(lacks(feedback.text, ".cpp"));
}

TEST(Feedback, RuntimeErrorWithoutNamesGivesTheMessageAsIs) {
  nlohmann::json record = load_record("runtime_error");
  record["message"] =
      "kernel 'allgather_peer_stores' parameter 2 is a pointer, the plan passes an int";
  EXPECT_TRUE(contains(feedback_for(record).text,
                       "kernel/step: kernel 'allgather_peer_stores'\nstage: run\nmessage: kernel "
                       "'allgather_peer_stores' parameter 2 is a pointer"));
  record["message"] = "pkb-worker exited with status 139";
  EXPECT_TRUE(contains(feedback_for(record).text,
                       "stage: run\nmessage: pkb-worker exited with status 139\n"));
}

TEST(Feedback, TimeoutNamesTheRankAndStage) {
  nlohmann::json record = load_record("timeout");
  Feedback feedback = feedback_for(record);
  EXPECT_EQ(feedback.scope, "run");
  EXPECT_TRUE(contains(feedback.text, "timeout: the solution did not finish in time"));
  EXPECT_TRUE(contains(feedback.text,
                       "stage: run\nmessage: killed after 600 s (the candidate did not finish)\n"));

  record["message"] = "trial 2: rank 5 did not finish within 10 s";
  EXPECT_TRUE(contains(feedback_for(record).text, "rank: 5\nstage: trial 2\n"));
  record["message"] = "no result after 600 s (at timing: round 2): the worker was killed";
  EXPECT_TRUE(contains(feedback_for(record).text, "stage: timing: round 2\n"));
}

TEST(Feedback, IncorrectGivesThePerRankErrorTable) {
  nlohmann::json record = load_record("incorrect");
  // A passing trial first: the table shows every trial, passing or not.
  const nlohmann::json passing = nlohmann::json::parse(
      R"({"passed": true, "skewed": false, "tensor": "y", "rank": 0, "max_abs_err": 0.0078125,
          "max_rel_err": 0.0039, "error_ratio": 0.5, "mismatches": 0, "first_bad_index": -1})");
  record["eval"]["trials"].insert(record["eval"]["trials"].begin(), passing);
  record["eval"]["trials"][1]["first_bad_index"] = {0, 17};
  const Feedback feedback = feedback_for(record);
  EXPECT_EQ(feedback.scope, "correctness");
  EXPECT_EQ(feedback.note, "");
  EXPECT_TRUE(contains(feedback.text,
                       "failed check: trial 1: y on rank 3: 1048576 of 1048576 elements differ\n"));
  EXPECT_TRUE(contains(feedback.text,
                       "trial  tensor  rank  result  skewed  max_abs_err  max_rel_err  "
                       "error_ratio  mismatches  first_bad_index\n"
                       "1      y       0     pass    no      0.007812     0.0039       "
                       "0.5          0           -\n"
                       "2      y       3     FAIL    no      2.75         1            "
                       "352          1048576     [0, 17]\n"));
}

TEST(Feedback, IncorrectAtADrawnShapeNamesTheShape) {
  // Trials at drawn sizes (docs/RESULTS.md, eval.shapes): the message and the table say where.
  nlohmann::json record = load_record("incorrect");
  const nlohmann::json passing = nlohmann::json::parse(
      R"({"passed": true, "skewed": false, "tensor": "y", "rank": 0, "max_abs_err": 0,
          "max_rel_err": 0, "error_ratio": 0, "mismatches": 0, "first_bad_index": [],
          "shape": "M=4 N=8", "num_sms": 16})");
  record["eval"]["trials"][0]["shape"] = "M=454 N=288";
  record["eval"]["trials"].insert(record["eval"]["trials"].begin(), passing);
  record["message"] = "trial 2 at M=454 N=288 (num_sms 2): y on rank 3: 1048576 of 1048576 elements differ";
  const Feedback feedback = feedback_for(record);
  EXPECT_TRUE(contains(feedback.text, "failed check: trial 2 at M=454 N=288 (num_sms 2): y on rank 3"));
  EXPECT_TRUE(contains(feedback.text, "trial  shape        tensor  rank  result"));
  EXPECT_TRUE(contains(feedback.text, "1      M=4 N=8      y       0     pass"));
  EXPECT_TRUE(contains(feedback.text, "2      M=454 N=288  y       3     FAIL"));
}

TEST(Feedback, CorrectGivesTimesSpeedupAndSpeedOfLight) {
  nlohmann::json record = load_record("correct");
  Feedback feedback = feedback_for(record);
  EXPECT_EQ(feedback.scope, "timing");
  EXPECT_EQ(feedback.note, "");
  EXPECT_TRUE(contains(feedback.text,
                       "your kernels: median 41.3 us (p10 40.1 us, p90 43.4 us, 200 iterations)\n"
                       "baseline (libtorch+nccl): median 55 us (p10 53.4 us, p90 57.8 us, 200 "
                       "iterations)\nspeedup: 1.33x the baseline"));
  EXPECT_TRUE(contains(feedback.text, "timing: measured with one GPU per rank\n"));
  EXPECT_TRUE(lacks(feedback.text, "speed of light"));
  EXPECT_TRUE(
      contains(feedback.text, "Your solution is correct. Keep it correct and make it faster."));

  record["sol_fraction"] = 0.62;
  record["sol_ms"] = 0.0256;
  record["timing"]["emulated"] = true;
  feedback = feedback_for(record);
  EXPECT_TRUE(contains(feedback.text,
                       "speed of light: 0.62 of the floor (the floor of one call: "
                       "0.0256 ms)"));
  EXPECT_TRUE(contains(feedback.text, "timing: emulated (ranks shared a GPU)"));
  EXPECT_EQ(feedback.note, "timing emulated: ranks shared a GPU, so the speed is not trusted");
}

TEST(Feedback, CorrectButNotTimedStopsAtCorrectness) {
  nlohmann::json record = load_record("correct");
  record["timing"] = nullptr;
  const Feedback feedback = feedback_for(record);
  EXPECT_EQ(feedback.scope, "correctness");
  EXPECT_EQ(feedback.note, "not timed");
}

TEST(Feedback, WarningsAreListed) {
  nlohmann::json record = load_record("correct");
  record["warnings"] = {
      "kernel 'allgather_peer_stores' stores to peers without a system-scope fence"};
  EXPECT_TRUE(contains(feedback_for(record).text,
                       "Warnings (advice; they did not change the result):\n\n- kernel "
                       "'allgather_peer_stores' stores to peers without a system-scope fence\n"));
  EXPECT_TRUE(lacks(feedback_for(load_record("correct")).text, "Warnings"));
}

TEST(Feedback, TurnNumbersAreOneBased) {
  const nlohmann::json record = load_record("plan_error");
  EXPECT_TRUE(contains(make_feedback(typed(record), "", default_template(), 1, 3).text,
                       "This is answer 2 of 3: you have 2 left, this one included.\n"));
  EXPECT_TRUE(contains(make_feedback(typed(record), "", default_template(), 2, 3).text,
                       "This is answer 3 of 3: you have 1 left, this one included, so it is your "
                       "last chance.\n"));
  EXPECT_THROW(make_feedback(typed(record), "", default_template(), 0, 3), Error);
  EXPECT_THROW(make_feedback(typed(record), "", default_template(), 3, 3), Error);
}

TEST(Feedback, ApiErrorAndUnknownStatusesAreRefused) {
  nlohmann::json record = load_record("plan_error");
  record["status"] = "api_error";
  EXPECT_THROW(feedback_for(record), Error);
  record["status"] = "exploded";
  EXPECT_THROW(feedback_for(record), InputError);
}

}  // namespace
}  // namespace pkb::feedback
