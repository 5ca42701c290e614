// `pkb run` and `pkb evaluate` end to end on the bundled replay answers (no key, no network):
// every sample's status is what examples/replay/expected.json promises, run.json has the
// schema-2 fields, simulated verdicts count for pass@k and never for fast_p, the run ends with
// pass@1 and who judged, a second process cannot write a locked directory, and bad input is a
// one-line error with exit code 2.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>

#include "tests/e2e/run_pkb.h"
#include "tests/run/run_cli_fixture.h"

namespace pkb::test {
namespace {

TEST(RunCli, ReplayRunRecordsEverySampleOnceWithItsIntendedStatus) {
  const Baseline& run = uninterrupted_run();
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = read_json(run.out + "/run.json");
  const bool gpu = doc["environment"]["gpu_available"];
  const auto expected = expected_statuses();
  EXPECT_EQ(run.statuses, expected);
  const auto records = read_records(run.out + "/samples.jsonl");
  EXPECT_EQ(records.size(), expected.size());  // once each
  std::set<std::string> seen;
  for (const auto& record : records) {
    const std::string status = record["status"];
    seen.insert(status);
    EXPECT_EQ(record["schema_version"], 2);
    EXPECT_EQ(record["turn"], 0);
    EXPECT_FALSE(record["category"].get<std::string>().empty());
    for (const char* field : {"message", "compile", "plan_steps", "library_steps", "warnings",
                              "eval", "timing", "speedup", "sol_ms", "sol_fraction",
                              "suspicious_fast", "usage", "artifacts", "time", "world", "dtype"})
      EXPECT_TRUE(record.contains(field)) << field << " in " << record.dump();
    if (status == "format_error") {
      EXPECT_TRUE(record["compile"].is_null());
    }
    if (status == "compile_error") {
      EXPECT_FALSE(record["compile"]["log"].get<std::string>().empty());
      EXPECT_TRUE(
          std::filesystem::exists(run.out + "/" + record["artifacts"]["log"].get<std::string>()));
    }
    if (status == "plan_error") {
      EXPECT_TRUE(record["compile"].is_object());
    }
    if (status == "correct" || status == "incorrect") {
      EXPECT_GT(record["plan_steps"].get<int>(), 0);
      EXPECT_EQ(record["eval"]["judged_by"], gpu ? "gpu" : "sim") << record.dump();
      if (!gpu) {
        EXPECT_FALSE(record["eval"]["no_gpu_reason"].get<std::string>().empty());
        EXPECT_TRUE(record["eval"]["device"]["simulated"].get<bool>());
        EXPECT_TRUE(record["timing"].is_null()) << "the simulated node times nothing";
        EXPECT_EQ(record["eval"]["trials"].size(), status == "correct" ? 5u : 1u);
      }
    }
    EXPECT_TRUE(
        std::filesystem::exists(run.out + "/" + record["artifacts"]["answer"].get<std::string>()));
  }
  EXPECT_TRUE(seen.count("compile_error") && seen.count("format_error") &&
              seen.count("plan_error") && seen.count("correct") && seen.count("incorrect"));
}

TEST(RunCli, RunJsonHoldsTheFingerprintEnvironmentAndProblemSet) {
  const Baseline& run = uninterrupted_run();
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = read_json(run.out + "/run.json");
  EXPECT_EQ(doc["schema_version"], 2);
  EXPECT_EQ(doc["kind"], "run");
  EXPECT_EQ(doc["model"]["name"], "replay:examples/replay");
  EXPECT_TRUE(doc.contains("started") && doc.contains("finished") && doc.contains("pkb_version"));
  EXPECT_NE(doc["command"].get<std::string>().find("pkb run --model replay:examples/replay"),
            std::string::npos);
  const auto& fingerprint = doc["fingerprint"];
  EXPECT_EQ(fingerprint["samples"], 4);
  EXPECT_EQ(fingerprint["trials"], 5);
  EXPECT_EQ(fingerprint["turns"], 1);
  EXPECT_EQ(fingerprint["dims"], "test");
  EXPECT_EQ(fingerprint["model"], "replay:examples/replay");
  const auto& environment = doc["environment"];
  for (const char* field : {"gpu_available", "gpus", "driver_version", "cuda_runtime_version",
                            "nvrtc_version", "nccl_version", "torch_version", "topology", "clocks"})
    EXPECT_TRUE(environment.contains(field)) << field;
  EXPECT_TRUE(environment["nvrtc_version"].is_string());  // NVRTC works without a GPU
  EXPECT_TRUE(environment["torch_version"].is_string());
  if (!environment["gpu_available"].get<bool>()) {
    EXPECT_EQ(doc["hardware_key"], "simulated node");
    EXPECT_EQ(fingerprint["judge"], "sim");
    EXPECT_FALSE(environment["no_gpu_reason"].get<std::string>().empty());
  }
  EXPECT_EQ(doc["problem_set"]["count"], 8);
  EXPECT_EQ(doc["problem_set"]["sha256"].get<std::string>().size(), 64u);
  ASSERT_EQ(doc["problems"].size(), 8u);
  EXPECT_EQ(doc["problems"][0]["key"], "001_allreduce");
  EXPECT_EQ(doc["problems"][0]["category"], "collective");
  EXPECT_EQ(doc["problems"][0]["world"], 8);
  EXPECT_EQ(doc["summary"]["total"], 32);
  int counted = 0;
  for (const auto& [status, count] : doc["summary"]["by_status"].items())
    counted += count.get<int>();
  EXPECT_EQ(counted, 32);
}

TEST(RunCli, SimulatedVerdictsCountForPassAtKAndNeverForFastP) {
  const Baseline& run = uninterrupted_run();
  ASSERT_EQ(run.exit_code, 0) << run.err;
  if (read_json(run.out + "/run.json")["environment"]["gpu_available"].get<bool>())
    GTEST_SKIP() << "a GPU judged this run";
  // pass@1 from the records: per problem, correct / samples, averaged over problems.
  std::map<std::string, std::pair<int, int>> per_problem;  // correct, samples
  int judged = 0;
  for (const auto& [key, status] : run.statuses) {
    auto& [correct, samples] = per_problem[key.first];
    correct += status == "correct";
    ++samples;
    judged += status == "correct" || status == "incorrect";
  }
  double expected = 0;
  for (const auto& [problem, counts] : per_problem) expected += double(counts.first) / counts.second;
  expected /= static_cast<double>(per_problem.size());

  const PkbRun score = run_pkb("score " + run.out + " --k 1 --json");
  ASSERT_EQ(score.exit_code, 0) << score.err;
  const auto doc = nlohmann::json::parse(score.out);
  const auto& metrics = doc["overall"]["metrics"];
  EXPECT_NEAR(metrics["pass@1"]["value"].get<double>(), expected, 1e-9);
  EXPECT_GT(expected, 0.0);
  EXPECT_EQ(doc["overall"]["simulated_records"], judged);
  for (const char* fast : {"fast_0@1", "fast_1@1", "fast_2@1"})
    EXPECT_TRUE(metrics[fast]["value"].is_null()) << fast << ": the simulated node times nothing";
  const PkbRun table = run_pkb("score " + run.out + " --k 1");
  EXPECT_NE(table.out.find("# judged on the simulated node: " + std::to_string(judged) + " records"), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("not timed (the simulated node measures nothing)"), std::string::npos) << table.out;
}

TEST(RunCli, ARunEndsWithPassAtOneAndWhoJudged) {
  const std::string out = make_temp_dir("run_headline") + "/out";
  const PkbRun run = run_pkb("run --model replay:examples/replay --problems 1 --world 2 --dims test --out '" + out + "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  if (read_json(out + "/run.json")["environment"]["gpu_available"].get<bool>())
    GTEST_SKIP() << "a GPU judged this run";
  EXPECT_NE(run.err.find("run: pass@1 1.000 [1.000, 1.000] over 1 problems; judged on the simulated node"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("nothing was timed"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("for the simulated node"), std::string::npos) << "the progress line names the judge: " << run.err;
}

TEST(RunCli, ALockedDirectoryRefusesASecondRun) {
  const Baseline& run = uninterrupted_run();
  const int fd = ::open((run.out + "/.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const PkbRun second = run_pkb(run_args(run.out, "--resume"));
  ::close(fd);
  EXPECT_EQ(second.exit_code, 2);
  EXPECT_EQ(second.err,
            "pkb: error: --out " + run.out + ": another pkb process is writing there\n");
}

TEST(RunCli, AnUntimedRunSaysSoInItsFingerprintAndResumesOnlyUntimed) {
  const std::string out = make_temp_dir("run_no_timing") + "/out";
  const PkbRun untimed = run_pkb(run_args(out, "--problems 1 --no-timing"));
  ASSERT_EQ(untimed.exit_code, 0) << untimed.err;
  EXPECT_EQ(read_json(out + "/run.json")["fingerprint"]["no_timing"], true);
  const PkbRun timed = run_pkb(run_args(out, "--problems 1 --resume"));
  EXPECT_EQ(timed.exit_code, 2);
  EXPECT_EQ(timed.err,
            "pkb: error: --resume: " + out + " was generated with no_timing = true, not absent\n");
  EXPECT_EQ(run_pkb(run_args(out, "--problems 1 --no-timing --resume")).exit_code, 0);
  // A timed run's fingerprint has no such field (and so still matches runs made before it).
  EXPECT_FALSE(
      read_json(uninterrupted_run().out + "/run.json")["fingerprint"].contains("no_timing"));
}

TEST(RunCli, BadInputIsOneLineAndExitTwo) {
  const Baseline& run = uninterrupted_run();
  const std::string fresh = make_temp_dir("run_bad") + "/out";
  // A replay folder with one answer and no replay.json: 005 has nothing there.
  const std::string partial = make_temp_dir("run_bad_replay");
  std::filesystem::create_directories(partial + "/answers/001_allreduce");
  std::filesystem::copy_file(std::string(PKB_SOURCE_DIR) + "/examples/replay/answers/001_allreduce/sample_0.md",
                             partial + "/answers/001_allreduce/sample_0.md");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-q run --model replay:no/such/dir --out '" + fresh + "'",
       "pkb: error: --model replay:no/such/dir: no responses/ folder there (expected a pkb "
       "generate --out "
       "directory)\n"},
      {"-q run --model replay:" + partial + " --problems 1,5 --out '" + fresh + "'",
       "pkb: error: --problems 1,5: replay:" + partial + " has no answers for 005_scatter\n"},
      {run_args(fresh, "--problems 999"),
       "pkb: error: --problems 999: unknown problem '999' (pkb list shows the problems)\n"},
      {"-q run --model replay:examples/replay --problems 1-7,16 --samples 2 --dims test --resume --out '" + run.out +
           "'",
       "pkb: error: --resume: " + run.out + " was generated with samples = 4, not 2\n"},
      {run_args(run.out, "--trials 3 --resume"),
       "pkb: error: --resume: " + run.out + " was generated with trials = 5, not 3\n"},
      {run_args(run.out), "pkb: error: --out " + run.out +
                              ": already holds a run (run.json); pass --resume to continue it\n"},
      {"-q run --resume", "pkb: error: --resume: name the run to continue with --out DIR\n"},
  };
  for (const auto& [args, message] : cases) {
    const PkbRun bad = run_pkb(args);
    EXPECT_EQ(bad.exit_code, 2) << args << "\n" << bad.err;
    EXPECT_EQ(bad.err, message) << args;
  }
  EXPECT_FALSE(std::filesystem::exists(fresh + "/samples.jsonl"));
  EXPECT_EQ(read_records(run.out + "/samples.jsonl").size(), 32u);  // untouched by the refusals
}

TEST(EvaluateCli, EvaluatesAGenerateDirectoryAndContinuesIdempotently) {
  const std::string dir = make_temp_dir("evaluate") + "/out";
  run_args(dir);  // sets the private cache
  const PkbRun generated = run_pkb(
      "-q generate --model replay:examples/replay --problems 1,2 --samples 4 --dims test "
      "--out '" +
      dir + "'");
  ASSERT_EQ(generated.exit_code, 0) << generated.err;
  const PkbRun evaluated = run_pkb("-q evaluate '" + dir + "'");
  ASSERT_EQ(evaluated.exit_code, 0) << evaluated.err;
  const auto doc = read_json(dir + "/run.json");
  EXPECT_EQ(doc["kind"], "evaluate");
  EXPECT_EQ(doc["schema_version"], 2);
  EXPECT_EQ(doc["evaluated_from"], "generate");
  EXPECT_EQ(doc["fingerprint"]["trials"], 5);
  EXPECT_EQ(doc["fingerprint"]["dims"], "test");
  EXPECT_EQ(read_records(dir + "/generate.jsonl").size(), 8u);
  const auto expected = expected_statuses();
  auto records = read_records(dir + "/samples.jsonl");
  ASSERT_EQ(records.size(), 8u);
  for (const auto& record : records) {
    EXPECT_EQ(record["schema_version"], 2);
    EXPECT_EQ(record["status"], expected.at({record["problem"], record["sample"]}))
        << record.dump();
  }
  const PkbRun again = run_pkb("-q evaluate '" + dir + "'");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_records(dir + "/samples.jsonl").size(), 8u);
  const PkbRun other = run_pkb("-q evaluate '" + dir + "' --trials 3");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_EQ(other.err, "pkb: error: pkb evaluate " + dir +
                           ": evaluated before with trials = 5, not 3; pass the "
                           "same settings to continue it\n");
  const PkbRun missing = run_pkb("-q evaluate '" + dir + "/nope'");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "pkb: error: " + dir + "/nope: no such directory\n");
}

}  // namespace
}  // namespace pkb::test
