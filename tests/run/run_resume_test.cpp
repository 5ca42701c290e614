// Resume after kill -9 at random points (docs/RESULTS.md): a run killed three times and resumed
// ends with exactly the (problem, sample) set of an uninterrupted run, each once, with the same
// statuses. Between kills the file may end in a torn line, never hold a duplicate.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <random>
#include <set>
#include <thread>

#include "tests/e2e/run_pkb.h"
#include "tests/run/run_cli_fixture.h"

namespace pkb::test {
namespace {

// Parseable lines by id; only the last line may be torn.
std::multiset<SampleKey> ids_so_far(const std::string& path, bool& torn_inside) {
  std::multiset<SampleKey> ids;
  std::ifstream in(path);
  std::string line;
  bool torn = false;
  torn_inside = false;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (torn) torn_inside = true;
    const auto record = nlohmann::json::parse(line, nullptr, false);
    if (record.is_discarded()) {
      torn = true;
      continue;
    }
    ids.emplace(record["problem"], record["sample"]);
  }
  return ids;
}

TEST(RunResume, KilledAtThreePointsThenResumedEqualsAnUninterruptedRun) {
  const Baseline& baseline = uninterrupted_run();
  ASSERT_EQ(baseline.exit_code, 0) << baseline.err;
  const std::string out = make_temp_dir("run_resume") + "/out";
  std::mt19937 random(std::random_device{}());
  // Kill 0 lands at a random time early on (often before the first record); kills 1 and 2 when
  // a random number of records has reached the disk, so they fall between samples and, with
  // --no-cache keeping every compile real, while others are still in the pipeline.
  int interrupted = 0;
  std::size_t on_disk = 0;
  for (int kill_index = 0; kill_index < 3; ++kill_index) {
    const pid_t pid =
        spawn_pkb(run_args(out, std::string(kill_index == 0 ? "" : "--resume") + " --no-cache"));
    ASSERT_GT(pid, 0);
    std::string point;
    bool torn_inside = false;
    if (kill_index == 0) {
      const double seconds = std::uniform_real_distribution<double>(0.2, 1.5)(random);
      std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
      point = std::to_string(seconds) + " s";
    } else {
      const std::size_t target = std::uniform_int_distribution<std::size_t>(
          std::min<std::size_t>(on_disk + 1, 23), 23)(random);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (ids_so_far(out + "/samples.jsonl", torn_inside).size() < target &&
             std::chrono::steady_clock::now() < deadline && ::waitpid(pid, nullptr, WNOHANG) == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      point = std::to_string(target) + " records";
    }
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) ++interrupted;
    const auto ids = ids_so_far(out + "/samples.jsonl", torn_inside);
    on_disk = ids.size();
    std::cout << "kill " << kill_index << " at " << point << ": "
              << (WIFSIGNALED(status) ? "killed" : "had finished") << ", " << ids.size()
              << " records on disk\n";
    EXPECT_FALSE(torn_inside) << "kill " << kill_index << " at " << point;
    EXPECT_EQ(std::set<SampleKey>(ids.begin(), ids.end()).size(), ids.size())
        << "a duplicate after kill " << kill_index << " at " << point;
  }
  EXPECT_GE(interrupted, 1)
      << "no kill landed while pkb ran; the windows are too late for this machine";
  const PkbRun last = run_pkb(run_args(out, "--resume"));
  ASSERT_EQ(last.exit_code, 0) << last.err;
  const auto records = read_records(out + "/samples.jsonl");
  std::map<SampleKey, std::string> statuses;
  for (const auto& record : records)
    statuses[{record["problem"], record["sample"]}] = record["status"];
  EXPECT_EQ(records.size(), statuses.size()) << "duplicates in the final file";
  EXPECT_EQ(statuses, baseline.statuses);
  EXPECT_EQ(read_json(out + "/run.json")["summary"]["total"], 32);
}

}  // namespace
}  // namespace pkb::test
