// The private compile cache is shared by every test of the process: the first run compiles, the
// others mostly read the cache, which keeps the program well under a minute.
#include "tests/run/run_cli_fixture.h"

#include <sys/types.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tests/e2e/run_pkb.h"

namespace pkb::test {

::pid_t spawn_pkb(const std::string& args) {
  const std::string command = std::string("exec '") + PKB_BINARY + "' --problems-dir '" +
                              PKB_SOURCE_DIR + "/problems' " + args + " >/dev/null 2>&1";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

// The six problems of examples/replay/answers (every status) and 005, 006, which the replay
// answers from their reference answers (examples/replay/replay.json).
constexpr const char* kReplayProblems = "1-7,16";
const std::vector<std::string> kReferenceAnswered = {"005_scatter", "006_gather"};

std::string run_args(const std::string& out, const std::string& extra) {
  static const std::string cache = make_temp_dir("run_cache");
  ::setenv("PKB_CACHE_DIR", cache.c_str(), 1);
  const std::string problems =
      extra.find("--problems") == std::string::npos ? std::string(" --problems ") + kReplayProblems : "";
  return "-q run --model replay:examples/replay --samples 4 --dims test --out '" + out + "'" + problems +
         " " + extra;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

std::map<SampleKey, std::string> expected_statuses() {
  std::map<SampleKey, std::string> statuses;
  const auto expected = read_json(std::string(PKB_SOURCE_DIR) + "/examples/replay/expected.json");
  for (const auto& [key, samples] : expected.items())
    for (std::size_t sample = 0; sample < samples.size(); ++sample) {
      statuses[{key, static_cast<int>(sample)}] = samples[sample]["status"];
    }
  for (const auto& key : kReferenceAnswered)
    for (int sample = 0; sample < 4; ++sample) statuses[{key, sample}] = "correct";
  return statuses;
}

const Baseline& uninterrupted_run() {
  static const Baseline baseline = [] {
    Baseline result;
    result.out = make_temp_dir("run_baseline") + "/out";
    const auto start = std::chrono::steady_clock::now();
    const PkbRun run = run_pkb(run_args(result.out));
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.exit_code = run.exit_code;
    result.err = run.err;
    for (const auto& record : read_records(result.out + "/samples.jsonl"))
      result.statuses[{record["problem"], record["sample"]}] = record["status"];
    return result;
  }();
  return baseline;
}

}  // namespace pkb::test
