// The simulated node end to end (pkb-sim-worker, no GPU needed): the worked examples are correct
// at W = 2, 4 and 8; the broken candidates of the gpu tests end as they do on a GPU; a missing
// barrier between a peer's write and a read is incorrect under every seed's trial schedules (and
// the same seed gives the same verdict), the same answer with the barrier is correct; a peer that
// reads a rank's memory after that rank's call ended is incorrect; a warp
// reduction after an early return is correct on live lanes and incorrect on exited ones; faults
// name the thread and the source line; an instruction it does not implement gives no verdict.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <iostream>

#include "tests/gpu/gpu_fixture.h"

namespace pkb::gpu_test {
namespace {

namespace fs = std::filesystem;

fs::path sim_data(const std::string& name) { return fs::path(PKB_SOURCE_DIR) / "tests/sim/data" / name; }
fs::path gpu_data(const std::string& name) { return fs::path(PKB_SOURCE_DIR) / "tests/gpu/data" / name; }

harness::WorkerResult judge(const fs::path& answer, EvalOptions options = {}) {
  options.simulated = true;
  if (options.trials == 3) options.trials = 5;  // the five trial schedules
  const harness::WorkerResult result = eval_answer(answer, options);
  std::cout << answer.filename().string() << " W=" << options.world << ": " << describe(result) << "\n";
  return result;
}

struct ExampleCase {
  fs::path answer;
  int world;
};

void PrintTo(const ExampleCase& c, std::ostream* out) { *out << c.answer.filename().string() << " W=" << c.world; }

std::vector<ExampleCase> examples() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(PKB_SOURCE_DIR) / "problems/examples"))
    if (entry.path().extension() == ".md") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<ExampleCase> cases;
  for (const auto& file : files)
    for (int world : {2, 4, 8}) cases.push_back({file, world});
  return cases;
}

class ExamplesOnTheSimulatedNode : public testing::TestWithParam<ExampleCase> {};

TEST_P(ExamplesOnTheSimulatedNode, AreCorrect) {
  EvalOptions options;
  options.world = GetParam().world;
  const auto result = judge(GetParam().answer, options);
  EXPECT_EQ(result.status, harness::WorkerStatus::correct) << describe(result);
  EXPECT_TRUE(result.device.simulated);
  EXPECT_FALSE(result.timing.has_value()) << "the simulated node times nothing";
  ASSERT_TRUE(result.simulation.has_value());
  EXPECT_GT(result.simulation->lane_instructions, 0u);
  ASSERT_EQ(result.trials.size(), 5u);
  EXPECT_EQ(result.trials[1].schedule.rfind("simulated, rank order (0,", 0), 0u) << result.trials[1].schedule;
  EXPECT_EQ(result.trials[2].schedule.rfind("simulated, reverse rank order", 0), 0u) << result.trials[2].schedule;
}

// A named function, not a lambda: gtest's macro names its own parameter `info`, and a lambda's
// `info` inside it is a shadow that -Wshadow=local (an error in CI) refuses.
std::string example_name(const testing::TestParamInfo<ExampleCase>& param_info) {
  std::string name = param_info.param.answer.stem().string() + "_W" + std::to_string(param_info.param.world);
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Examples, ExamplesOnTheSimulatedNode, testing::ValuesIn(examples()), example_name);

TEST(SimulatedFaults, AnOutOfBoundsStoreNamesKernelRankBlockThreadAndLine) {
  const auto result = judge(gpu_data("001_oob_write.md"));
  EXPECT_EQ(result.status, harness::WorkerStatus::runtime_error) << describe(result);
  for (const char* part : {"out-of-bounds store of 2 bytes", "no allocation holds it",
                           "kernel allreduce_oob, rank ", ", block (0,0,0), thread (0,0,0), `st.global.u16` at candidate.cu:9",
                           ", PTX line "})
    EXPECT_NE(result.message.find(part), std::string::npos) << part << " in " << result.message;
}

TEST(SimulatedFaults, ASpinThatNeverEndsTimesOutNamingWhereItSpins) {
  const auto result = judge(gpu_data("001_spin_forever.md"));
  EXPECT_EQ(result.status, harness::WorkerStatus::timeout) << describe(result);
  EXPECT_NE(result.message.find("trial 1"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("spins on memory nobody writes, after `ld.volatile.global.u32` (candidate.cu:4)"),
            std::string::npos)
      << result.message;
  EXPECT_LT(result.seconds, 20.0) << "a hang costs seconds, not the call timeout";
}

TEST(SimulatedFaults, ASpinWaitWithTheHeadersTimeoutTraps) {
  const auto result = judge(sim_data("001_wait_forever.md"));
  EXPECT_EQ(result.status, harness::WorkerStatus::runtime_error) << describe(result);
  EXPECT_NE(result.message.find("trap"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("candidate.cu:3 (pkb/memory.cuh:"), std::string::npos) << result.message;
}

TEST(SimulatedFaults, WritingAnInputIsIncorrect) {
  const auto result = judge(gpu_data("001_writes_input.md"));
  EXPECT_EQ(result.status, harness::WorkerStatus::incorrect) << describe(result);
  EXPECT_NE(result.message.find("changed its input 'x'"), std::string::npos) << result.message;
}

TEST(SimulatedFaults, AnUnwrittenOutputIsIncorrect) {
  const auto result = judge(gpu_data("001_unwritten_output.md"));
  EXPECT_EQ(result.status, harness::WorkerStatus::incorrect) << describe(result);
  ASSERT_FALSE(result.trials.empty());
  EXPECT_FALSE(result.trials[0].passed);
}

TEST(SimulatedFaults, LaunchingNoWorkIsIncorrect) {
  const auto result = judge(gpu_data("001_no_work.md"));
  EXPECT_EQ(result.status, harness::WorkerStatus::incorrect) << describe(result);
}

TEST(SimulatedFaults, StateKeptInDeviceGlobalsIsCaughtAfterTheRepeatedCalls) {
  const auto result = judge(gpu_data("001_device_state.md"));
  EXPECT_EQ(result.status, harness::WorkerStatus::incorrect) << describe(result);
  EXPECT_EQ(result.trials.size(), 5u);
  for (const auto& trial : result.trials) EXPECT_TRUE(trial.passed) << trial.summary;
  EXPECT_TRUE(result.message.rfind("last repeated call", 0) == 0 ||
              result.message.rfind("re-check after repeated calls", 0) == 0)
      << result.message;
}

TEST(SimulatedSchedules, AMissingBarrierIsIncorrectForEverySeedAndReplaysExactly) {
  for (std::uint64_t seed : {1ull, 2ull, 12345ull})
    for (int world : {2, 8}) {
      EvalOptions options;
      options.world = world;
      options.schedule_seed = seed;
      options.trial_seeds = {101, 202, 303, 404, 505};
      const auto first = judge(sim_data("001_missing_barrier.md"), options);
      EXPECT_EQ(first.status, harness::WorkerStatus::incorrect) << "seed " << seed << ": " << describe(first);
      const auto again = judge(sim_data("001_missing_barrier.md"), options);
      EXPECT_EQ(again.message, first.message) << "seed " << seed << ": the same seed replays the same schedules";
      EXPECT_EQ(again.simulation->lane_instructions, first.simulation->lane_instructions);
      const auto right = judge(sim_data("001_with_barrier.md"), options);
      EXPECT_EQ(right.status, harness::WorkerStatus::correct) << "seed " << seed << ": " << describe(right);
    }
}

TEST(SimulatedSchedules, APeerReadAfterARanksCallEndedIsIncorrectAndSaysWhose) {
  for (std::uint64_t seed : {1ull, 7ull})
    for (int world : {2, 8}) {
      EvalOptions options;
      options.world = world;
      options.schedule_seed = seed;
      const auto result = judge(sim_data("001_no_final_barrier.md"), options);
      EXPECT_EQ(result.status, harness::WorkerStatus::incorrect) << "seed " << seed << ": " << describe(result);
      EXPECT_NE(result.message.find("'s call had ended"), std::string::npos) << result.message;
      EXPECT_NE(result.message.find("in x of rank "), std::string::npos) << result.message;
      EXPECT_NE(result.message.find("kernel allreduce_peer_loads"), std::string::npos) << result.message;
    }
}

TEST(SimulatedWarps, AFullMaskReductionAfterAnEarlyReturnIsCorrectOnLiveLanes) {
  for (int world : {2, 4, 8}) {
    EvalOptions options;
    options.world = world;
    const auto result = judge(sim_data("001_warp_sum_live_lanes.md"), options);
    EXPECT_EQ(result.status, harness::WorkerStatus::correct) << describe(result);
  }
}

TEST(SimulatedWarps, AReductionUsingExitedLanesIsIncorrectAndSaysWhichRead) {
  const auto result = judge(sim_data("001_warp_sum_exited_lanes.md"));
  EXPECT_EQ(result.status, harness::WorkerStatus::incorrect) << describe(result);
  EXPECT_NE(result.message.find("`shfl.sync.down.b32` read lane 16, which had exited: the value is undefined"),
            std::string::npos)
      << result.message;
}

TEST(SimulatedCoverage, AnInstructionItDoesNotImplementGivesNoVerdictAndNamesIt) {
  const auto result = judge(sim_data("001_unimplemented.md"));
  EXPECT_EQ(result.status, harness::WorkerStatus::not_executed) << describe(result);
  EXPECT_NE(result.message.find("does not implement `wgmma.fence.sync.aligned`"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("candidate.cu:3, PTX line "), std::string::npos) << result.message;
}

}  // namespace
}  // namespace pkb::gpu_test
