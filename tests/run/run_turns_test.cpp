// `pkb run --turns T` end to end against a fake OpenAI-compatible server on loopback (a real HTTP
// server): the model's second answer compiles only because the feedback carried the compiler's
// error line; request bodies hold the whole conversation and nothing secret; a conversation cut by
// an api_error resumes at the turn where it stopped with the same history; the token budget
// lowers the last request's cap and ends the conversation.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "tests/e2e/run_pkb.h"
#include "tests/model/fake_provider.h"
#include "tests/run/run_cli_fixture.h"

namespace pkb::test {
namespace {

// What NVRTC says about examples/replay's sample 2 of 001_allreduce (it reads a field that
// pkb::SignalPad does not have); only feedback that carries the compile log can contain it.
const char* const kErrorLine = "has no member \"world_size\"";

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string answer(int sample) {
  return slurp(std::string(PKB_SOURCE_DIR) + "/examples/replay/answers/001_allreduce/sample_" +
               std::to_string(sample) + ".md");
}

// The chat messages of a request body.
nlohmann::json messages_of(const SeenRequest& request) {
  return nlohmann::json::parse(request.body).at("messages");
}

// A model that first answers with a kernel that does not compile and fixes it only once a user
// message of the conversation quotes the compiler's error.
FakeReply fixing_model(const SeenRequest& request) {
  for (const auto& message : messages_of(request))
    if (message["role"] == "user" &&
        message["content"].get<std::string>().find(kErrorLine) != std::string::npos)
      return fake::chat(answer(0));
  return fake::chat(answer(2));
}

std::string turn_args(const FakeProvider& server, const std::string& out,
                      const std::string& extra) {
  static const std::string cache = make_temp_dir("turns_cache");
  ::setenv("PKB_CACHE_DIR", cache.c_str(), 1);
  return "-q run --model openai-compat:fake --base-url " + server.base_url() +
         " --no-stream --problems 001_allreduce --dims test --jobs 2 --out '" + out + "' " + extra;
}

// Records by (sample, turn).
std::map<std::pair<int, int>, nlohmann::json> by_turn(const std::string& out) {
  std::map<std::pair<int, int>, nlohmann::json> records;
  for (auto& record : read_records(out + "/samples.jsonl")) {
    const std::pair<int, int> id{record["sample"], record["turn"]};
    EXPECT_EQ(records.count(id), 0u)
        << "duplicate record for sample " << id.first << " turn " << id.second;
    records[id] = std::move(record);
  }
  return records;
}

// Lines a writer has finished (a record is one write ending in '\n'); safe while pkb appends.
std::size_t complete_lines(const std::string& path) {
  const std::string text = slurp(path);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

bool judged_past_compile(const std::string& status) {
  return status == "compiled" || status == "correct" || status == "incorrect" ||
         status == "runtime_error" || status == "timeout";
}

TEST(RunTurns, TheSecondAnswerCompilesBecauseTheFeedbackQuotedTheCompiler) {
  FakeProvider server;
  server.set_default(fixing_model);
  const std::string out = make_temp_dir("turns") + "/out";
  const PkbRun run = run_pkb(turn_args(server, out, "--samples 2 --turns 3"));
  ASSERT_EQ(run.exit_code, 0) << run.err;

  const auto records = by_turn(out);
  ASSERT_EQ(records.size(), 6u);  // 2 samples x 3 turns
  for (int sample = 0; sample < 2; ++sample) {
    const auto& first = records.at({sample, 0});
    EXPECT_EQ(first["status"], "compile_error");
    ASSERT_TRUE(first["feedback"].is_object()) << first.dump();
    EXPECT_EQ(first["feedback"]["scope"], "compile");
    EXPECT_TRUE(first["conversation"]["end"].is_null());
    const std::string feedback = slurp(out + "/" + first["feedback"]["file"].get<std::string>());
    EXPECT_NE(feedback.find(kErrorLine), std::string::npos) << feedback;

    const auto& second = records.at({sample, 1});
    EXPECT_TRUE(judged_past_compile(second["status"])) << second.dump();
    EXPECT_EQ(second["artifacts"]["cuda"],
              "solutions/001_allreduce/sample_" + std::to_string(sample) + "/turn_1/kernel.cu");
    const auto& last = records.at({sample, 2});
    EXPECT_EQ(last["conversation"]["end"], "turns");
    EXPECT_TRUE(last["feedback"].is_null());
    EXPECT_EQ(last["conversation"]["output_tokens"], 150);  // 50 per reply from the fake
    if (second["status"] == "compiled") {  // no GPU here: the records say how far it was judged
      EXPECT_EQ(second["feedback"]["scope"], "plan");
      EXPECT_FALSE(second["feedback"]["note"].get<std::string>().empty());
    }
  }

  // Turn t's request holds the whole conversation: t earlier exchanges, then the feedback.
  const auto seen = server.seen();
  ASSERT_EQ(seen.size(), 6u);
  std::map<int, int> requests_by_length;
  for (const auto& request : seen) {
    const auto messages = messages_of(request);
    ++requests_by_length[static_cast<int>(messages.size())];
    for (std::size_t index = 1; index < messages.size(); index += 2)
      EXPECT_EQ(messages[index]["role"], "assistant");
    if (messages.size() >= 3) {
      EXPECT_EQ(messages[1]["content"], answer(2));
    }
  }
  EXPECT_EQ(requests_by_length, (std::map<int, int>{{1, 2}, {3, 2}, {5, 2}}));

  const auto summary = read_json(out + "/run.json");
  EXPECT_EQ(summary["fingerprint"]["turns"], 3);
  EXPECT_EQ(summary["summary"]["samples"], 2);
  EXPECT_EQ(summary["summary"]["total"], 6);
}

TEST(RunTurns, FeedbackNeverHoldsSeedsExpectedValuesOrHarnessPaths) {
  FakeProvider server;
  server.set_default(fixing_model);
  const std::string out = make_temp_dir("turns_leak") + "/out";
  const PkbRun run = run_pkb(turn_args(server, out, "--samples 1 --turns 3"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto seen = server.seen();
  ASSERT_EQ(seen.size(), 3u);
  int feedback_messages = 0;
  for (const auto& request : seen) {
    const auto messages = messages_of(request);
    // Message 0 is the task prompt; every later user message is feedback pkb wrote.
    for (std::size_t index = 2; index < messages.size(); index += 2) {
      std::string text = messages[index]["content"];
      ++feedback_messages;
      for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      for (const char* secret : {"seed", "reference output", "pkb-worker", "logs/", "/tmp/",
                                 "harness/", "request.json", out.c_str()})
        EXPECT_EQ(text.find(secret), std::string::npos) << "feedback holds '" << secret << "':\n"
                                                        << text;
    }
  }
  EXPECT_EQ(feedback_messages, 1 + 2);  // turn 1 carries one feedback, turn 2 two
}

TEST(RunTurns, WithoutTheErrorLineInTheFeedbackTheModelNeverFixesIt) {
  // The control: a feedback template that leaves out the details keeps the fake model broken,
  // so the passing test above depends on what the feedback says.
  FakeProvider server;
  server.set_default(fixing_model);
  const std::string dir = make_temp_dir("turns_control");
  { std::ofstream(dir + "/terse.md") << "Turn {{turn}}: {{verdict}}. Try again.\n"; }
  const PkbRun run = run_pkb(turn_args(
      server, dir + "/out", "--samples 1 --turns 2 --feedback-template '" + dir + "/terse.md'"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto records = by_turn(dir + "/out");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records.at({0, 1})["status"], "compile_error");
}

TEST(RunTurns, ResumesAConversationAtTheTurnWhereItStoppedWithTheSameHistory) {
  const std::string out = make_temp_dir("turns_resume") + "/out";
  // One server (the endpoint is part of the fingerprint): first it answers turn 0 and refuses
  // every later turn (HTTP 400: the sample fails, no retry), so the run stops after one turn with
  // an api_error record for turn 1; then it behaves.
  FakeProvider server;
  server.set_default([](const SeenRequest& request) {
    return messages_of(request).size() == 1 ? fixing_model(request)
                                            : fake::error(400, R"({"error":{"message":"no"}})");
  });
  const PkbRun broken = run_pkb(turn_args(server, out, "--samples 1 --turns 3"));
  EXPECT_NE(broken.exit_code, 0);
  const auto first_requests = server.seen();
  {
    const auto records = by_turn(out);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records.at({0, 1})["status"], "api_error");
    EXPECT_EQ(records.at({0, 1})["conversation"]["end"], "api_error");
  }
  const auto feedback_file = by_turn(out).at({0, 0})["feedback"]["file"].get<std::string>();
  const std::string feedback = slurp(out + "/" + feedback_file);

  server.set_default(fixing_model);
  const PkbRun run = run_pkb(turn_args(server, out, "--samples 1 --turns 3 --resume"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto all = server.seen();
  const std::vector<SeenRequest> seen(all.begin() + first_requests.size(), all.end());
  ASSERT_EQ(seen.size(), 2u);  // turns 1 and 2; turn 0 is not asked again
  const auto resumed = messages_of(seen[0]);
  ASSERT_EQ(resumed.size(), 3u);
  EXPECT_EQ(resumed[0], messages_of(first_requests[0])[0]);  // the same task prompt
  EXPECT_EQ(resumed[1]["content"], answer(2));               // the recorded answer
  EXPECT_EQ(resumed[2]["content"], feedback);                // the recorded feedback
  const auto records = by_turn(out);
  ASSERT_EQ(records.size(), 3u);  // the api_error record was replaced, not kept beside
  EXPECT_TRUE(judged_past_compile(records.at({0, 1})["status"]));
  EXPECT_EQ(records.at({0, 2})["conversation"]["end"], "turns");
  EXPECT_EQ(read_json(out + "/run.json")["resumed_conversations"], 1);
}

TEST(RunTurns, TheTokenBudgetLowersTheLastCapAndEndsTheConversation) {
  FakeProvider server;
  server.set_default(fixing_model);  // every reply reports 50 output tokens
  const std::string out = make_temp_dir("turns_budget") + "/out";
  const PkbRun run =
      run_pkb(turn_args(server, out, "--samples 1 --turns 5 --max-tokens-total 120"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto seen = server.seen();
  ASSERT_EQ(seen.size(), 3u);  // 50 + 50 + 50 >= 120 ends it after the third turn
  EXPECT_EQ(nlohmann::json::parse(seen[0].body)["max_tokens"], 32000);
  EXPECT_EQ(nlohmann::json::parse(seen[1].body)["max_tokens"], 70);
  EXPECT_EQ(nlohmann::json::parse(seen[2].body)["max_tokens"], 20);
  const auto records = by_turn(out);
  EXPECT_EQ(records.at({0, 2})["conversation"]["end"], "max_tokens_total");
}

TEST(RunTurns, RefinementFlagsAreChecked) {
  const std::string out = make_temp_dir("turns_flags") + "/out";
  const std::string base =
      "-q run --model replay:examples/replay --problems 1 --dims test --out '" + out + "' ";
  const PkbRun zero = run_pkb(base + "--turns 0");
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.err.find("--turns 0: expected 1 to 100"), std::string::npos) << zero.err;
  const PkbRun alone = run_pkb(base + "--stop-speedup 1.5");
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--stop-speedup: only means something with --turns"), std::string::npos)
      << alone.err;
  const PkbRun missing = run_pkb(base + "--turns 2 --feedback-template /nonexistent/f.md");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("--feedback-template /nonexistent/f.md: no such file"),
            std::string::npos)
      << missing.err;
  EXPECT_FALSE(std::filesystem::exists(out + "/samples.jsonl"));  // nothing written
}

TEST(RunTurns, TheBundledReplayAnswersFixEverySampleOf001AtTheSecondTurn) {
  const std::string out = make_temp_dir("turns_replay") + "/out";
  const PkbRun run = run_pkb(run_args(out, "--problems 1 --turns 2"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto records = by_turn(out);
  ASSERT_EQ(records.size(), 8u);
  const auto expected =
      expected_statuses();
  for (int sample = 0; sample < 4; ++sample) {
    EXPECT_EQ(records.at({sample, 0})["status"], expected.at({"001_allreduce", sample}));
    EXPECT_TRUE(records.at({sample, 0})["feedback"].is_object());
    EXPECT_TRUE(judged_past_compile(records.at({sample, 1})["status"]))
        << records.at({sample, 1}).dump();
    EXPECT_EQ(records.at({sample, 1})["conversation"]["end"], "turns");
  }
}

TEST(RunTurns, KilledMidConversationThenResumedEndsWithEveryTurnOnce) {
  // --no-cache keeps every compile real, so the two-turn run of 001's 4 samples lasts long enough
  // for kills to land between a turn's record and the next turn's.
  const std::string out = make_temp_dir("turns_kill") + "/out";
  const std::string args = run_args(out, "--problems 1 --turns 2 --no-cache");
  std::mt19937 random(std::random_device{}());
  int killed = 0;
  std::size_t on_disk = 0;
  for (int kill_index = 0; kill_index < 3; ++kill_index) {
    const ::pid_t pid = spawn_pkb(args + (kill_index ? " --resume" : ""));
    ASSERT_GT(pid, 0);
    // Each kill waits for one more turn on disk than the last left (or the end), then a random
    // moment more, so it falls somewhere inside a conversation.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (complete_lines(out + "/samples.jsonl") <= on_disk &&
           std::chrono::steady_clock::now() < deadline && ::waitpid(pid, nullptr, WNOHANG) == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const double seconds = std::uniform_real_distribution<double>(0.0, 0.4)(random);
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) ++killed;
    const auto so_far = by_turn(out);  // no (sample, turn) twice at any point
    on_disk = so_far.size();
    std::cout << "kill " << kill_index << " " << seconds
              << " s after a new turn: " << (WIFSIGNALED(status) ? "killed" : "had finished")
              << ", " << so_far.size() << " turns on disk\n";
  }
  const PkbRun last = run_pkb(args + " --resume");
  ASSERT_EQ(last.exit_code, 0) << last.err;
  const auto records = by_turn(out);
  ASSERT_EQ(records.size(), 8u);
  for (int sample = 0; sample < 4; ++sample) {
    const auto& first = records.at({sample, 0});
    ASSERT_TRUE(first["feedback"].is_object()) << first.dump();
    EXPECT_TRUE(std::filesystem::exists(out + "/" + first["feedback"]["file"].get<std::string>()));
    EXPECT_TRUE(judged_past_compile(records.at({sample, 1})["status"]))
        << records.at({sample, 1}).dump();
  }
  if (killed == 0) std::cout << "note: no kill landed while pkb ran (it finished first)\n";
}

}  // namespace
}  // namespace pkb::test
