// run_worker against a fake worker script (tests/gpu/data/fake_worker.sh): every way a worker
// can end maps to a status, without a GPU.
#include "harness/executor/worker_client.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>

#include "src/common/error.h"

namespace pkb::harness {
namespace {

WorkerResult run_fake(const std::string& mode, double deadline_s = 10) {
  setenv("FAKE_WORKER_MODE", mode.c_str(), 1);
  WorkerRunOptions options;
  options.program = PKB_FAKE_WORKER;
  options.deadline_s = deadline_s;
  WorkerRequest request;
  request.problem = "001_allreduce";
  return run_worker(request, options);
}

TEST(WorkerClient, ReturnsTheWorkersResult) {
  const WorkerResult result = run_fake("correct");
  EXPECT_EQ(result.status, WorkerStatus::correct);
  EXPECT_EQ(result.stage, "timing");
  EXPECT_DOUBLE_EQ(result.seconds, 1.5);
  EXPECT_NE(result.log.find("fake worker: done"), std::string::npos);
}

TEST(WorkerClient, HangIsATimeoutNamingTheStage) {
  const auto start = std::chrono::steady_clock::now();
  const WorkerResult result = run_fake("hang", 0.5);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(result.status, WorkerStatus::timeout);
  EXPECT_EQ(result.message, "no result after 0.5 s (at trial 2: call): the worker was killed");
  EXPECT_EQ(result.stage, "trial 2: call");
  EXPECT_LT(seconds, 5);  // killed at the deadline, not after the script's 30 s
}

TEST(WorkerClient, CrashIsARuntimeError) {
  const WorkerResult result = run_fake("crash");
  EXPECT_EQ(result.status, WorkerStatus::runtime_error);
  EXPECT_EQ(result.message,
            "pkb-worker killed by signal 11 (at trial 2: call): fake worker: about to crash");
}

TEST(WorkerClient, NonzeroExitKeepsTheLastStderrLine) {
  const WorkerResult result = run_fake("exit3");
  EXPECT_EQ(result.status, WorkerStatus::runtime_error);
  EXPECT_EQ(result.message,
            "pkb-worker exited with status 3 (at trial 2: call): fake worker: bad things happened");
  EXPECT_NE(result.log.find("first line"), std::string::npos);
}

TEST(WorkerClient, AResultWrittenBeforeAHangIsBelieved) {
  const WorkerResult result = run_fake("result_then_hang", 0.5);
  EXPECT_EQ(result.status, WorkerStatus::timeout);
  EXPECT_EQ(result.message, "trial 2: rank 1 did not finish within 2 s");
}

TEST(WorkerClient, AGarbledResultCountsAsNone) {
  const WorkerResult result = run_fake("garbage");
  EXPECT_EQ(result.status, WorkerStatus::runtime_error);
  EXPECT_EQ(result.message, "pkb-worker exited with status 0 (at trial 2: call)");
}

TEST(WorkerClient, MissingWorkerProgramIsNamed) {
  setenv("PKB_WORKER", "/nonexistent/pkb-worker", 1);
  try {
    worker_program();
    unsetenv("PKB_WORKER");
    FAIL() << "expected an error";
  } catch (const Error& error) {
    unsetenv("PKB_WORKER");
    EXPECT_STREQ(error.what(), "PKB_WORKER=/nonexistent/pkb-worker: no such file");
  }
}

}  // namespace
}  // namespace pkb::harness
