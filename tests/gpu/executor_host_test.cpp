// The executor end to end on the CPU: problem 001_allreduce (W = 2, bf16, test dims) with host
// "kernels" on a HostDevice. Real plan resolution, PlanRunner, references, the correctness rule,
// timing and the re-checks run; only the kernels and the memory are the host's.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "harness/cuda/cuda_baseline.h"
#include "harness/executor/executor.h"
#include "src/problem/spec_loader.h"
#include "tests/gpu/host_device.h"

namespace pkb::gpu_test {
namespace {

namespace fs = std::filesystem;
using harness::WorkerStatus;

// Every host kernel has the example's signature: (Peers<bf16> x, bf16* y, i64 n, SignalPad).
const char* kPtx = R"(
.visible .entry NAME(
  .param .align 8 .b8 NAME_param_0[64],
  .param .u64 NAME_param_1,
  .param .u64 NAME_param_2,
  .param .align 8 .b8 NAME_param_3[72]
)
{
}
)";

const char* kKernels[] = {"sum", "sum_writes_input", "nothing", "sum_once", "own_only", "fault",
                          "hang", "sum_whole_packs"};

struct Args {
  std::uint16_t* x[8];
  std::uint16_t* y;
  std::int64_t n;
  int world;
};

Args decode(const std::vector<std::string>& params) {
  Args args{};
  std::memcpy(args.x, params.at(0).data(), 64);
  std::memcpy(&args.y, params.at(1).data(), 8);
  std::memcpy(&args.n, params.at(2).data(), 8);
  std::memcpy(&args.world, params.at(3).data() + 68, 4);  // SignalPad: 8 pointers, rank, world
  return args;
}

void sum_into_y(const Args& args) {
  for (std::int64_t i = 0; i < args.n; ++i) {
    float total = 0;
    for (int r = 0; r < args.world; ++r) total += bf16_to_float(args.x[r][i]);
    args.y[i] = float_to_bf16(total);
  }
}

std::unique_ptr<harness::ExecDevice> make_host_device(const harness::WorkerRequest& request) {
  auto device = std::make_unique<HostDevice>(request.world);
  device->add_kernel("sum",
                     [](HostDevice&, int, const auto& params) { sum_into_y(decode(params)); });
  device->add_kernel("sum_writes_input", [](HostDevice&, int rank, const auto& params) {
    const Args args = decode(params);
    sum_into_y(args);
    if (rank == 1)
      args.x[1][0] = float_to_bf16(bf16_to_float(args.x[1][0]) + 1);  // after both ranks read
  });
  device->add_kernel("nothing", [](HostDevice&, int, const auto&) {});
  device->add_kernel("sum_whole_packs", [](HostDevice&, int, const auto& params) {
    Args args = decode(params);
    args.n -= args.n % 8;  // drops the elements after the last whole 16-byte pack
    sum_into_y(args);
  });
  device->add_kernel("sum_once", [](HostDevice& d, int rank, const auto& params) {
    long& done = d.module_state()["done" + std::to_string(rank)];
    if (done++ == 0) sum_into_y(decode(params));
  });
  device->add_kernel("own_only", [](HostDevice&, int rank, const auto& params) {
    const Args args = decode(params);
    std::memcpy(args.y, args.x[rank], args.n * 2);  // skips the communication
  });
  device->add_kernel("fault", [](HostDevice& d, int rank, const auto&) {
    d.inject_fault(rank, "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered");
  });
  device->add_kernel("hang", [](HostDevice& d, int rank, const auto&) { d.inject_hang(rank); });
  return device;
}

class ExecutorOnHost : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pkb-executor-host-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::string ptx;
    for (const char* kernel : kKernels) {
      std::string entry = kPtx;
      for (std::size_t at; (at = entry.find("NAME")) != std::string::npos;)
        entry.replace(at, 4, kernel);
      ptx += entry;
    }
    write("kernel.ptx", ptx);
    write("kernel.cubin", "host kernels have no cubin");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }

  harness::WorkerResult run(const std::string& kernel, bool timing = false,
                            const std::string& plan = "",
                            const std::vector<harness::DrawnTrial>& drawn = {}) {
    write("plan.json", plan.empty()
                           ? R"plan({"steps": [{"op": "kernel", "kernel": ")plan" + kernel +
                                 R"plan(", "grid": [1], "block": [32],
                                           "args": ["peers(x)", "y", "i64(M * N)", "signals"]}]})plan"
                           : plan);
    harness::WorkerRequest request;
    request.problem = "001_allreduce";
    request.problems_dir = (fs::path(PKB_SOURCE_DIR) / "problems").string();
    request.world = 2;
    request.dtype = DType::bf16;
    request.dims =
        problem::load_problem(fs::path(request.problems_dir) / request.problem).test_dims;
    request.cubin_path = (dir_ / "kernel.cubin").string();
    request.ptx_path = (dir_ / "kernel.ptx").string();
    request.plan_path = (dir_ / "plan.json").string();
    request.trial_seeds = {101, 202, 303};
    request.drawn_trials = drawn;
    request.timing_seed = 5000;
    request.timing = timing;
    request.timing_rounds = 1;
    request.call_timeout_s = 2;
    request.progress_path = (dir_ / "progress.txt").string();
    harness::WorkerResult result =
        harness::run_sample(request, {make_host_device, harness::make_cuda_baseline});
    std::cout << kernel << ": " << harness::worker_status_name(result.status) << ": "
              << result.message << "\n";
    return result;
  }

  fs::path dir_;
};

TEST_F(ExecutorOnHost, CorrectKernelIsCorrect) {
  const auto result = run("sum");
  EXPECT_EQ(result.status, WorkerStatus::correct) << result.message;
  ASSERT_EQ(result.trials.size(), 3u);
  for (const auto& trial : result.trials) EXPECT_TRUE(trial.passed) << trial.summary;
  EXPECT_FALSE(result.trials[0].skewed);
  EXPECT_TRUE(result.trials[1].skewed);
  EXPECT_TRUE(result.device.emulated);
  EXPECT_FALSE(result.timing.has_value());
  EXPECT_TRUE(result.library_steps.empty());
}

TEST_F(ExecutorOnHost, CorrectKernelIsTimedAgainstTheBaseline) {
  const auto result = run("sum", true);
  ASSERT_EQ(result.status, WorkerStatus::correct) << result.message;
  ASSERT_TRUE(result.timing.has_value());
  const auto& timing = *result.timing;
  EXPECT_DOUBLE_EQ(timing.candidate.median_us, 1000);  // the host device's clock: 1 ms a launch
  EXPECT_EQ(timing.candidate.iterations, 200);         // 200 ms at 1 ms each
  EXPECT_GT(timing.baseline.median_us, 0);
  EXPECT_EQ(timing.baseline_kind, "simulated");
  EXPECT_DOUBLE_EQ(timing.speedup, timing.baseline.median_us / timing.candidate.median_us);
  EXPECT_TRUE(timing.emulated);
  EXPECT_TRUE(timing.recheck_passed);
  EXPECT_GE(timing.input_sets, 2);
  EXPECT_TRUE(timing.exceeds_l2);  // 3 x 4 KiB of host "L2", 128 B per set on both ranks
  EXPECT_NE(result.message.find("emulated"), std::string::npos) << result.message;
}

TEST_F(ExecutorOnHost, DrawnTrialsRunAfterTheMainOnesAtTheirOwnSizes) {
  // Test dims M=4 N=8 (a whole number of packs), then M=3 N=5 and M=1 N=1: timing stays at the
  // test dims, and every trial records its sizes.
  const std::vector<harness::DrawnTrial> drawn = {{{{"M", 3}, {"N", 5}}, 404, 0},
                                                  {{{"M", 1}, {"N", 1}}, 505, 0}};
  const auto result = run("sum", true, "", drawn);
  ASSERT_EQ(result.status, WorkerStatus::correct) << result.message;
  ASSERT_EQ(result.trials.size(), 5u);
  EXPECT_EQ(result.trials[0].shape, "M=4 N=8");
  EXPECT_EQ(result.trials[3].shape, "M=3 N=5");
  EXPECT_EQ(result.trials[4].shape, "M=1 N=1");
  ASSERT_TRUE(result.timing.has_value());
  EXPECT_TRUE(result.timing->recheck_passed);
}

TEST_F(ExecutorOnHost, ADroppedTailIsIncorrectAtADrawnShapeThatNamesIt) {
  EXPECT_EQ(run("sum_whole_packs").status, WorkerStatus::correct);  // 32 elements: no tail
  const auto result = run("sum_whole_packs", false, "", {{{{"M", 3}, {"N", 5}}, 404, 0}});
  EXPECT_EQ(result.status, WorkerStatus::incorrect);
  EXPECT_EQ(result.message.rfind("trial 4 at M=3 N=5: rank 0 y:", 0), 0u) << result.message;
  ASSERT_EQ(result.trials.size(), 4u);
  EXPECT_FALSE(result.trials[3].passed);
}

TEST_F(ExecutorOnHost, SkippingCommunicationIsIncorrect) {
  const auto result = run("own_only");
  EXPECT_EQ(result.status, WorkerStatus::incorrect);
  EXPECT_EQ(result.message.rfind("trial 1: rank 0 y:", 0), 0u) << result.message;
  ASSERT_EQ(result.trials.size(), 1u);
  EXPECT_GT(result.trials[0].mismatches, 0);
  EXPECT_FALSE(result.trials[0].first_bad_index.empty());
}

TEST_F(ExecutorOnHost, WritingAnInputIsIncorrect) {
  const auto result = run("sum_writes_input");
  EXPECT_EQ(result.status, WorkerStatus::incorrect);
  EXPECT_EQ(result.message,
            "trial 1: rank 1 changed its input 'x' (first at byte 0); inputs are read-only");
}

TEST_F(ExecutorOnHost, UnwrittenOutputsAreIncorrect) {
  const auto result = run("nothing");
  EXPECT_EQ(result.status, WorkerStatus::incorrect);
  EXPECT_NE(result.message.find("y"), std::string::npos) << result.message;
}

TEST_F(ExecutorOnHost, StateAcrossCallsPassesTrialsAndFailsAfterTiming) {
  const auto result = run("sum_once", true);
  EXPECT_EQ(result.status, WorkerStatus::incorrect) << result.message;
  ASSERT_EQ(result.trials.size(), 3u);  // the module is reloaded before every trial
  for (const auto& trial : result.trials) EXPECT_TRUE(trial.passed);
  EXPECT_TRUE(result.message.rfind("last timed call: ", 0) == 0 ||
              result.message.rfind("re-check", 0) == 0)
      << result.message;
}

TEST_F(ExecutorOnHost, DeviceFaultIsARuntimeError) {
  const auto result = run("fault");
  EXPECT_EQ(result.status, WorkerStatus::runtime_error);
  EXPECT_EQ(
      result.message,
      "trial 1: rank 1: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered");
  EXPECT_EQ(result.stage, "trial 1: call");
}

TEST_F(ExecutorOnHost, HangIsATimeout) {
  const auto result = run("hang");
  EXPECT_EQ(result.status, WorkerStatus::timeout);
  EXPECT_EQ(result.message, "trial 1: rank 1 did not finish within 2 s (emulated ranks)");
}

TEST_F(ExecutorOnHost, UnknownKernelIsAPlanError) {
  const auto result = run("not_compiled");
  EXPECT_EQ(result.status, WorkerStatus::plan_error);
  EXPECT_NE(result.message.find("not_compiled"), std::string::npos) << result.message;
}

// Emulated ranks run collectives without NCCL (collective_moves.h): a plan that is one all_reduce
// is the problem's own answer, checked like any other.
TEST_F(ExecutorOnHost, CollectiveInEmulationIsCorrect) {
  const auto result =
      run("", false, R"plan({"steps": [{"op": "collective", "kind": "all_reduce", "send": "x",
                                                       "recv": "y", "count": "M * N"}]})plan");
  EXPECT_EQ(result.status, WorkerStatus::correct) << result.message;
}

// A collective that moves the wrong data is caught: y gets only rank 0's x on every rank.
TEST_F(ExecutorOnHost, WrongCollectiveInEmulationIsIncorrect) {
  const auto result =
      run("", false, R"plan({"steps": [{"op": "collective", "kind": "broadcast", "send": "x",
                                                       "recv": "y", "count": "M * N", "root": 0}]})plan");
  EXPECT_EQ(result.status, WorkerStatus::incorrect) << result.message;
}

}  // namespace
}  // namespace pkb::gpu_test
