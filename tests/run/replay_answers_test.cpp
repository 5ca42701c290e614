// ReplayClient's answers/PROBLEM/sample_K.md: matched by the problem key in the request label and
// the sample index, whatever the prompt; the responses/ cache still wins for its exact prompt.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "src/common/error.h"
#include "src/generate/replay_client.h"

namespace pkb::generate {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir(const std::string& tag) {
  const fs::path dir =
      fs::temp_directory_path() / ("pkb_replay_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

model::ModelRequest request(const std::string& problem, int sample, const std::string& prompt) {
  model::ModelRequest result;
  result.user = prompt;
  result.sample_index = sample;
  result.label = problem + "#" + std::to_string(sample);
  return result;
}

TEST(ReplayAnswers, MatchesProblemKeyAndSampleWhateverThePrompt) {
  const fs::path dir = temp_dir("answers");
  write(dir / "answers/001_allreduce/sample_0.md", "answer zero");
  write(dir / "answers/001_allreduce/sample_3.md", "answer three");
  write(dir / "answers/001_allreduce/notes.txt", "ignored");
  ReplayClient client(dir);
  EXPECT_EQ(client.size(), 2u);
  for (const std::string prompt : {"prompt v1", "prompt v2 after an ABI change"}) {
    const auto outcome = client.generate(request("001_allreduce", 3, prompt));
    ASSERT_TRUE(outcome.ok());
    EXPECT_EQ(outcome.result->text, "answer three");
    EXPECT_EQ(outcome.result->stop, model::StopReason::complete);
  }
  const auto missing = client.generate(request("001_allreduce", 1, "p"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.failure->message.find("001_allreduce sample 1"), std::string::npos)
      << missing.failure->message;
  EXPECT_FALSE(client.generate(request("002_allgather", 0, "p")).ok());
  EXPECT_TRUE(client.covers("001_allreduce", "any"));
  EXPECT_FALSE(client.covers("002_allgather", "any"));
  EXPECT_FALSE(client.covers("001_allreduc", "any"));
  fs::remove_all(dir);
}

TEST(ReplayAnswers, ADirectoryWithNeitherFolderIsAUsageError) {
  const fs::path dir = temp_dir("empty");
  EXPECT_THROW(ReplayClient client(dir), UsageError);
  fs::remove_all(dir);
}

TEST(ReplayAnswers, ResolvesARelativeDirAgainstTheSourceTree) {
  const fs::path root = temp_dir("root");
  fs::create_directories(root / "examples/replay");
  EXPECT_EQ(resolve_replay_dir("examples/replay", root), root / "examples/replay");
  EXPECT_EQ(resolve_replay_dir("no/such/dir", root), fs::path("no/such/dir"));
  EXPECT_EQ(resolve_replay_dir("/abs/dir", root), fs::path("/abs/dir"));
  fs::remove_all(root);
}

TEST(ReplayAnswers, TheBundledAnswersCoverSixProblemsWithFourSamples) {
  ReplayClient client(fs::path(PKB_SOURCE_DIR) / "examples/replay");
  std::size_t reference_answers = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(PKB_SOURCE_DIR) / "problems"))
    reference_answers += fs::exists(entry.path() / "answer.md");
  // A second turn for each sample of 001_allreduce, and every problem's reference answer.
  EXPECT_EQ(client.size(), 24u + 4u + reference_answers);
  for (const std::string key : {"001_allreduce", "002_allgather", "003_broadcast", "004_reduce",
                                "007_reducescatter", "016_gemm_reducescatter"})
    for (int sample = 0; sample < 4; ++sample)
      EXPECT_TRUE(client.generate(request(key, sample, "any prompt")).ok()) << key << " " << sample;
}

// examples/replay/replay.json names problems/: a problem with no folder under answers/ gets its
// reference answer for every sample; one with a folder only ever gets that folder's files.
TEST(ReplayAnswers, AProblemWithoutAFolderIsAnsweredByItsReferenceAnswer) {
  const fs::path dir = temp_dir("reference");
  write(dir / "problems/005_scatter/answer.md", "the reference answer of 005");
  write(dir / "problems/001_allreduce/answer.md", "001's reference answer");
  write(dir / "replay/answers/001_allreduce/sample_0.md", "001's own sample 0");
  write(dir / "replay/replay.json", R"({"problem_answers": "../problems"})");
  ReplayClient client(dir / "replay");
  EXPECT_TRUE(client.covers("005_scatter", "any"));
  EXPECT_FALSE(client.covers("006_gather", "any"));
  for (int sample : {0, 3}) {
    const auto answer = client.generate(request("005_scatter", sample, "any prompt"));
    ASSERT_TRUE(answer.ok());
    EXPECT_EQ(answer.result->text, "the reference answer of 005");
  }
  EXPECT_EQ(client.generate(request("001_allreduce", 0, "any prompt")).result->text, "001's own sample 0");
  EXPECT_FALSE(client.generate(request("001_allreduce", 1, "any prompt")).ok());
  model::ModelRequest later = request("005_scatter", 0, "feedback");
  later.turn = 1;
  later.history.push_back({"q", "a"});
  EXPECT_FALSE(client.generate(later).ok()) << "a reference answer answers first turns only";
  // A folder with only replay.json (what scripts/gpu-check.sh makes) serves every reference answer.
  write(dir / "only/replay.json", R"({"problem_answers": "../problems"})");
  ReplayClient only(dir / "only");
  EXPECT_EQ(only.generate(request("001_allreduce", 2, "any prompt")).result->text, "001's reference answer");
  fs::remove_all(dir);
}

TEST(ReplayAnswers, ABadReplayJsonNamesItsFieldAndFile) {
  const fs::path dir = temp_dir("bad_config");
  write(dir / "answers/001_allreduce/sample_0.md", "x");
  write(dir / "replay.json", R"({"problem_answers": 7})");
  try {
    ReplayClient client(dir);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()), (dir / "replay.json").string() +
                                             ": problem_answers: expected a folder path (a string), got 7");
  }
  fs::remove_all(dir);
}

TEST(ReplayAnswers, ALaterTurnReadsItsOwnAnswerFileAndNeverTurnZeros) {
  const fs::path dir = temp_dir("turns");
  write(dir / "answers/001_allreduce/sample_1.md", "first answer");
  write(dir / "answers/001_allreduce/sample_1.turn_2.md", "third answer");
  ReplayClient client(dir);
  auto ask = [&](int turn) {
    model::ModelRequest asked = request("001_allreduce", 1, "feedback");
    asked.turn = turn;
    for (int index = 0; index < turn; ++index) asked.history.push_back({"q", "a"});
    return client.generate(asked);
  };
  ASSERT_TRUE(ask(0).ok());
  EXPECT_EQ(ask(0).result->text, "first answer");
  ASSERT_TRUE(ask(2).ok());
  EXPECT_EQ(ask(2).result->text, "third answer");
  const auto missing = ask(1);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.failure->message.find("sample_1.turn_1.md"), std::string::npos)
      << missing.failure->message;
}

}  // namespace
}  // namespace pkb::generate
