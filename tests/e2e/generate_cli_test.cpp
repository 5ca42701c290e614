// `pkb prompt` and `pkb generate` end to end, against the fake provider on loopback: the prompt and
// its hash, 16 records for problems 1-8 x 2 samples, one-line errors with exit code 2 and nothing
// written for bad input, and a generate killed mid-run then resumed ending with each sample once.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "src/common/sha256.h"
#include "tests/e2e/run_pkb.h"
#include "tests/model/fake_provider.h"

namespace pkb::test {
namespace {

const std::string kAnswer =
    "```cuda\nextern \"C\" __global__ void k() {}\n```\n```json\n{\"steps\": []}\n```\n";
const std::string kSecret = "sk-e2e-SECRET-never-on-disk";

std::set<std::pair<std::string, int>> distinct_ids(const std::vector<nlohmann::json>& lines) {
  std::set<std::pair<std::string, int>> ids;
  for (const auto& line : lines)
    ids.emplace(line.at("problem").get<std::string>(), line.at("sample").get<int>());
  return ids;
}

std::string generate_args(const FakeProvider& server, const std::string& out,
                          const std::string& extra = "") {
  return "-q generate --model openai-compat:fake --base-url " + server.base_url() +
         " --problems 1-8 --samples 2 --jobs 4 --stall-timeout 2 --out '" + out + "' " + extra;
}

TEST(PromptCli, PrintsACompletePromptAndItsHash) {
  const PkbRun run = run_pkb("-q prompt 1 --world 8");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("001_allreduce"), std::string::npos);
  EXPECT_NE(run.out.find("- input `x`: bf16 [M, N] = [1024, 1024] on every rank"), std::string::npos);
  EXPECT_NE(run.out.find("```json block"), std::string::npos);
  const PkbRun hash = run_pkb("-q prompt 1 --world 8 --hash");
  EXPECT_EQ(hash.out, sha256_hex(run.out) + "\n");
  EXPECT_EQ(run_pkb("-q prompt 1 --world 8").out, run.out);  // byte-stable
  const PkbRun bad = run_pkb("-q prompt 1 --world 8 --hardware h100_9");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "pkb: error: --hardware h100_9: unknown machine (did you mean 'h100_8'?); expected one of h100_8, h200_8, b200_8\n");
}

TEST(GenerateCli, WritesSixteenRecordsAndNeverTheKey) {
  FakeProvider server;
  server.set_default([](const SeenRequest&) { return fake::chat_stream(kAnswer); });
  const std::string out = make_temp_dir("gen") + "/run";
  setenv("OPENAI_COMPAT_API_KEY", kSecret.c_str(), 1);
  const PkbRun run =
      run_pkb("-vv " + generate_args(server, out).substr(3));  // not -q: every log line
  unsetenv("OPENAI_COMPAT_API_KEY");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("model: openai-compat:fake"),
            std::string::npos);  // -vv logs every attempt
  EXPECT_EQ(run.err.find(kSecret), std::string::npos);
  const auto lines = read_records(out + "/samples.jsonl");
  EXPECT_EQ(lines.size(), 16u);
  EXPECT_EQ(distinct_ids(lines).size(), 16u);
  for (const auto& line : lines) EXPECT_EQ(line.at("status"), "generated");
  EXPECT_EQ(server.seen().at(0).headers.at("authorization"), "Bearer " + kSecret);
  for (const auto& file : std::filesystem::recursive_directory_iterator(out)) {
    if (!file.is_regular_file()) continue;
    std::ifstream in(file.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str().find(kSecret), std::string::npos) << file.path();
  }
  const auto run_json = nlohmann::json::parse(std::ifstream(out + "/run.json"));
  EXPECT_EQ(run_json.at("summary").at("generated"), 16);
  EXPECT_EQ(run_json.at("command").get<std::string>().find(kSecret), std::string::npos);
}

TEST(GenerateCli, BadInputIsOneLineExitTwoAndWritesNothing) {
  int closed_port = 0;
  {
    FakeProvider closed;
    closed_port = closed.port();
  }
  FakeProvider server;
  server.set_default([](const SeenRequest&) { return fake::chat(kAnswer); });
  const std::string root = make_temp_dir("bad");
  std::ofstream(root + "/file") << "not a directory";
  const std::string out = root + "/out";
  unsetenv("ANTHROPIC_API_KEY");
  const std::string url = "http://127.0.0.1:" + std::to_string(closed_port) + "/v1";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-q generate --model antropic:claude --out " + out,
       "pkb: error: --model antropic:claude: unknown provider 'antropic', did you mean "
       "'anthropic'?\n"},
      {"-q generate --model claude --out " + out,
       "pkb: error: --model claude: expected PROVIDER:MODEL with PROVIDER one of openai, "
       "openai-responses, anthropic, "
       "gemini, together, openai-compat, replay\n"},
      {"-q generate --model anthropic:claude-x --problems 1 --out " + out,
       "pkb: error: --model anthropic:claude-x: ANTHROPIC_API_KEY is not set\n"},
      {"-q generate --model openai-compat:m --base-url 127.0.0.1:8000 --out " + out,
       "pkb: error: --base-url 127.0.0.1:8000: expected http://HOST[:PORT][/PATH] or "
       "https://...\n"},
      {"-q generate --model openai-compat:m --base-url " + url + " --problems 1 --out " + out,
       "pkb: error: --base-url " + url + ": cannot connect: Couldn't connect to server\n"},
      {"-q generate --model openai-compat:m --base-url " + server.base_url() +
           " --samples 0 --out " + out,
       "pkb: error: --samples 0: expected a positive number of samples\n"},
      {"-q generate --model openai-compat:m --base-url " + server.base_url() +
           " --problems 1-3,99 --out " + out,
       "pkb: error: --problems 1-3,99: unknown problem '99' (pkb list shows the problems)\n"},
      {"-q generate --model openai-compat:m --base-url " + server.base_url() +
           " --problems 1 --out " + root + "/file/out",
       "pkb: error: --out " + root + "/file/out: cannot create: Not a directory\n"},
      {"-q generate --model replay:" + root + " --problems 1 --out " + out,
       "pkb: error: --model replay:" + root +
           ": no responses/ folder there (expected a pkb generate --out directory)\n"},
  };
  for (const auto& [args, message] : cases) {
    const PkbRun run = run_pkb(args);
    EXPECT_EQ(run.exit_code, 2) << args;
    EXPECT_EQ(run.err, message) << args;
    EXPECT_EQ(run.out, "") << args;
    EXPECT_FALSE(std::filesystem::exists(out + "/samples.jsonl")) << args;
  }
  EXPECT_TRUE(server.seen().empty());
}

TEST(GenerateCli, KilledThenResumedEndsWithEverySampleOnce) {
  FakeProvider server;
  server.set_default([](const SeenRequest&) {
    auto reply = fake::chat_stream(kAnswer);
    reply.latency_ms = 150;
    return reply;
  });
  const std::string out = make_temp_dir("kill") + "/run";
  const std::string problems = std::string(PKB_SOURCE_DIR) + "/problems";
  const std::string base_url = server.base_url();
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int null_fd = ::open("/dev/null", O_WRONLY);
    dup2(null_fd, STDOUT_FILENO);
    dup2(null_fd, STDERR_FILENO);
    execl(PKB_BINARY, "pkb", "--problems-dir", problems.c_str(), "-q", "generate", "--model",
          "openai-compat:fake", "--base-url", base_url.c_str(), "--problems", "1-8", "--samples",
          "2", "--jobs", "2", "--out", out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  constexpr int kMaxPolls = 400;  // x 25 ms
  std::size_t seen_lines = 0;
  for (int poll = 0; poll < kMaxPolls && seen_lines < 4; ++poll) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    seen_lines = read_records(out + "/samples.jsonl").size();
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "pkb generate finished before it could be killed";
  const std::size_t before = read_records(out + "/samples.jsonl").size();
  ASSERT_GE(before, 4u);
  ASSERT_LT(before, 16u);

  const PkbRun resumed = run_pkb(generate_args(server, out, "--resume"));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const auto lines = read_records(out + "/samples.jsonl");
  EXPECT_EQ(lines.size(), 16u);
  EXPECT_EQ(distinct_ids(lines).size(), 16u);
  // Samples answered before the kill were not asked again (at most the ones in flight were).
  EXPECT_LE(server.seen().size(), 16u + 2u);
}

}  // namespace
}  // namespace pkb::test
