// Broken candidates for 001_allreduce (tests/gpu/data/001_*.md) get the verdict they deserve, and a
// hang costs only its own worker: the next sample runs in a fresh one and is correct.
#include <gtest/gtest.h>

#include <iostream>

#include "tests/gpu/gpu_fixture.h"

namespace pkb::gpu_test {
namespace {

namespace fs = std::filesystem;

fs::path data(const std::string& name) { return fs::path(PKB_GPU_TEST_DATA) / name; }

harness::WorkerResult eval_broken(const std::string& name, EvalOptions options = {}) {
  options.world = 2;
  options.emulate = harness::EmulateMode::on;
  const harness::WorkerResult result = eval_answer(data(name), options);
  std::cout << name << ": " << describe(result) << "\n";
  return result;
}

class GpuFaults : public testing::Test {
 protected:
  void SetUp() override {
    if (const std::string reason = gpu_missing_reason(); !reason.empty()) GTEST_SKIP() << reason;
  }
};

TEST_F(GpuFaults, OutOfBoundsWriteIsARuntimeError) {
  const auto result = eval_broken("001_oob_write.md");
  EXPECT_EQ(result.status, harness::WorkerStatus::runtime_error) << describe(result);
  EXPECT_NE(result.message.find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos) << result.message;
}

TEST_F(GpuFaults, SpinForeverTimesOutAndTheNextSampleRuns) {
  EvalOptions options;
  options.call_timeout_s = 3;
  options.deadline_s = 60;
  const auto hung = eval_broken("001_spin_forever.md", options);
  EXPECT_EQ(hung.status, harness::WorkerStatus::timeout) << describe(hung);
  EXPECT_NE(hung.message.find("trial 1"), std::string::npos) << hung.message;
  const auto next = eval_broken("../../../problems/examples/001_allreduce_peer_loads.md");
  EXPECT_EQ(next.status, harness::WorkerStatus::correct) << describe(next);
}

TEST_F(GpuFaults, WritingAnInputIsIncorrect) {
  const auto result = eval_broken("001_writes_input.md");
  EXPECT_EQ(result.status, harness::WorkerStatus::incorrect) << describe(result);
  EXPECT_NE(result.message.find("changed its input 'x'"), std::string::npos) << result.message;
}

TEST_F(GpuFaults, AnUnwrittenOutputIsIncorrect) {
  const auto result = eval_broken("001_unwritten_output.md");
  EXPECT_EQ(result.status, harness::WorkerStatus::incorrect) << describe(result);
  ASSERT_FALSE(result.trials.empty());
  EXPECT_FALSE(result.trials[0].passed);
}

TEST_F(GpuFaults, StateKeptInDeviceGlobalsIsCaughtAfterTiming) {
  EvalOptions options;
  options.timing = true;
  const auto result = eval_broken("001_device_state.md", options);
  EXPECT_EQ(result.status, harness::WorkerStatus::incorrect) << describe(result);
  // Every trial passes (the module is reloaded before each); the checks after timing fail.
  EXPECT_EQ(result.trials.size(), 3u);
  for (const auto& trial : result.trials) EXPECT_TRUE(trial.passed) << trial.summary;
  EXPECT_TRUE(result.message.find("last timed call") == 0 || result.message.find("re-check") == 0)
      << result.message;
}

TEST_F(GpuFaults, LaunchingNoWorkIsIncorrect) {
  const auto result = eval_broken("001_no_work.md");
  EXPECT_EQ(result.status, harness::WorkerStatus::incorrect) << describe(result);
}

TEST_F(GpuFaults, MulticastInEmulationIsAPlanError) {
  const auto result = eval_broken("001_multicast_emulated.md");
  EXPECT_EQ(result.status, harness::WorkerStatus::plan_error) << describe(result);
  EXPECT_NE(result.message.find("multicast"), std::string::npos) << result.message;
}

}  // namespace
}  // namespace pkb::gpu_test
