// When a conversation ends (end_reason), and how a recorded one is rebuilt for --resume.
#include "src/run/conversation.h"

#include <gtest/gtest.h>

#include <fstream>

#include "src/common/error.h"
#include "tests/e2e/run_pkb.h"

namespace pkb::run {
namespace {

results::Record record(const std::string& status, int turn, double speedup = 0) {
  results::Record doc;
  doc.status = status;
  doc.turn = turn;
  doc.evaluation = results::Evaluation{};
  if (speedup > 0) doc.evaluation->speedup = speedup;
  return doc;
}

results::Record turn_record(int turn, std::optional<std::int64_t> output_tokens,
                            const std::string& answer, const std::string& feedback) {
  results::Record doc;
  doc.turn = turn;
  doc.usage = results::TokenUsage{};
  doc.usage->output_tokens = output_tokens;
  doc.artifacts = results::Artifacts{};
  doc.artifacts->answer = answer;
  doc.feedback = results::FeedbackSent{feedback, "", ""};
  return doc;
}

TEST(EndReason, EachRuleInOrder) {
  TurnPolicy policy;
  policy.turns = 3;
  EXPECT_EQ(end_reason(record("compile_error", 0), policy, 0), "");
  EXPECT_EQ(end_reason(record("compile_error", 2), policy, 0), "turns");
  EXPECT_EQ(end_reason(record("api_error", 0), policy, 0), "api_error");
  // Without --stop-speedup a correct answer still gets its timing back and another try.
  EXPECT_EQ(end_reason(record("correct", 0, 9.0), policy, 0), "");
  policy.stop_speedup = 1.5;
  EXPECT_EQ(end_reason(record("correct", 0, 1.5), policy, 0), "stop_speedup");
  EXPECT_EQ(end_reason(record("correct", 0, 1.49), policy, 0), "");
  EXPECT_EQ(end_reason(record("incorrect", 0, 3.0), policy, 0), "");
  policy.max_tokens_total = 100;
  EXPECT_EQ(end_reason(record("incorrect", 0), policy, 99), "");
  EXPECT_EQ(end_reason(record("incorrect", 0), policy, 100), "max_tokens_total");
  EXPECT_EQ(end_reason(record("correct", 2, 2.0), policy, 500), "stop_speedup");  // first rule wins
}

TEST(ResumeConversation, RebuildsTheHistoryFromTheRecordedFiles) {
  const std::filesystem::path out = test::make_temp_dir("conversation");
  std::filesystem::create_directories(out / "a" / "turn_1");
  std::ofstream(out / "a/answer.md") << "answer 0";
  std::ofstream(out / "a/feedback.md") << "feedback 0";
  std::ofstream(out / "a/turn_1/answer.md") << "answer 1";
  std::ofstream(out / "a/turn_1/feedback.md") << "feedback 1";
  generate::ProblemPrompt problem;
  problem.key = "001_allreduce";
  problem.prompt.text = "the task";
  const std::vector<results::Record> records = {
      turn_record(0, 40, "a/answer.md", "a/feedback.md"),
      turn_record(1, std::nullopt, "a/turn_1/answer.md", "a/turn_1/feedback.md")};
  TurnPolicy policy;
  policy.turns = 4;
  policy.max_tokens = 1000;
  policy.max_tokens_total = 100;
  const Conversation conversation = resume_conversation(problem, 3, records, out, policy);
  EXPECT_EQ(conversation.sample, 3);
  EXPECT_EQ(conversation.next.turn, 2);
  ASSERT_EQ(conversation.next.history.size(), 2u);
  EXPECT_EQ(conversation.next.history[0].user, "the task");
  EXPECT_EQ(conversation.next.history[0].assistant, "answer 0");
  EXPECT_EQ(conversation.next.history[1].user, "feedback 0");
  EXPECT_EQ(conversation.next.history[1].assistant, "answer 1");
  EXPECT_EQ(conversation.next.user, "feedback 1");
  EXPECT_EQ(conversation.output_tokens, 40);    // an unknown count adds nothing
  EXPECT_EQ(conversation.next.max_tokens, 60);  // what the budget has left

  std::filesystem::remove(out / "a/turn_1/feedback.md");
  try {
    resume_conversation(problem, 3, records, out, policy);
    FAIL() << "a missing feedback file must stop the resume";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("a/turn_1/feedback.md"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace pkb::run
