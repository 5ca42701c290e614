// The feedback of every status is built from named fields only: a record stuffed with seeds,
// expected values and a worker log, and a log with the worker's part, leak none of it.
#include <gtest/gtest.h>

#include "src/feedback/feedback.h"
#include "tests/feedback/feedback_fixture.h"

namespace pkb::feedback {
namespace {

// Each number is unlikely anywhere else; a substring match on any of them is a leak.
const char* const kSecrets[] = {"918273645", "192837465",         "564738291",
                                "1.4142135", "2.7182818",         "3.1415926",
                                "6.0221407", "worker_log_marker", "/home/runner"};

nlohmann::json stuffed(const std::string& status) {
  nlohmann::json record = load_record(status);
  record["seed"] = 918273645;
  record["trial_seeds"] = {192837465, 564738291};
  record["expected"] = {1.4142135, 2.7182818};
  record["worker_log"] = "seed 918273645 worker_log_marker";
  record["artifacts"]["log"] = "/home/runner/results/logs/p/sample_0.txt";
  if (!record["eval"].is_object()) record["eval"] = nlohmann::json::object();
  record["eval"]["timing_seed"] = 918273645;
  record["eval"]["expected_output"] = {6.0221407};
  if (!record["eval"]["trials"].is_array()) record["eval"]["trials"] = nlohmann::json::array();
  for (auto& trial : record["eval"]["trials"]) {
    trial["expected_sample"] = 3.1415926;
    trial["seed"] = 564738291;
    trial["summary"] = "rank 3 y: 1/4 mismatches, first at [0]: got 2.7182818 expected 1.4142135";
  }
  if (record["timing"].is_object()) record["timing"]["seed"] = 192837465;
  return record;
}

// What pkb writes to logs/P/sample_K.txt: the NVRTC log, then the worker's.
std::string log_with_worker_part() {
  return data_text("compile_error.log") +
         "--- worker ---\ntrial seeds 192837465 564738291\nworker_log_marker error: none\n";
}

class FeedbackLeak : public ::testing::TestWithParam<std::string> {};

TEST_P(FeedbackLeak, NoSeedValueOrLogReachesTheText) {
  const Feedback feedback = feedback_for(stuffed(GetParam()), log_with_worker_part());
  for (const char* secret : kSecrets) EXPECT_TRUE(lacks(feedback.text, secret)) << GetParam();
  EXPECT_TRUE(lacks(feedback.text, "seed")) << GetParam();
  EXPECT_TRUE(lacks(feedback.text, "logs/")) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(EveryStatus, FeedbackLeak,
                         ::testing::Values("format_error", "compile_error", "plan_error",
                                           "compiled", "runtime_error", "timeout", "incorrect",
                                           "correct"));

TEST(FeedbackLeak, AnIncorrectMessageLosesTheValuesItQuotes) {
  nlohmann::json record = stuffed("incorrect");
  record["message"] =
      "trial 2: rank 3 y: 5/32 mismatches, first at [1, 3]: got 2.7182818 expected 1.4142135 "
      "(max abs err 1.3, error ratio 40)";
  const Feedback feedback = feedback_for(record);
  EXPECT_TRUE(contains(feedback.text,
                       "failed check: trial 2: rank 3 y: 5/32 mismatches, first at "
                       "[1, 3]\n"));
  for (const char* secret : kSecrets) EXPECT_TRUE(lacks(feedback.text, secret));
}

TEST(FeedbackLeak, HarnessPathsInMessagesAreShortened) {
  nlohmann::json record = stuffed("runtime_error");
  record["message"] =
      "executor: /home/runner/pkb/problems/002_allgather/problem.json: cannot read "
      "(/home/runner/pkb/harness/executor/executor_setup.cpp:52)";
  const Feedback feedback = feedback_for(record);
  EXPECT_TRUE(contains(feedback.text, "message: executor: problem.json: cannot read\n"));
  EXPECT_TRUE(lacks(feedback.text, "/home/runner"));
  EXPECT_TRUE(lacks(feedback.text, "executor_setup.cpp"));
}

}  // namespace
}  // namespace pkb::feedback
