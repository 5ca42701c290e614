// The plan interpreter on a recording fake: buffer layout, argument bytes, stream and event
// order, collective groups, input sets. Nothing here needs a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "harness/device/plan_runner.h"
#include "harness/plan/plan_resolve.h"
#include "src/problem/spec_loader.h"
#include "tests/harness/recording_device.h"

namespace pkb::harness {
namespace {

using compile::KernelParam;

template <class T>
T field_at(const std::string& bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

std::size_t position(const std::vector<std::string>& log, const std::string& line) {
  const auto it = std::find(log.begin(), log.end(), line);
  EXPECT_NE(it, log.end()) << "missing from the log: " << line;
  return static_cast<std::size_t>(it - log.begin());
}

class PlanRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    spec_ = problem::load_problem(std::string(PKB_SOURCE_DIR) + "/problems/001_allreduce");
    target_.spec = &spec_;
    target_.world = 2;
    target_.dtype = DType::bf16;
    target_.dims = spec_.test_dims;  // M = 4, N = 8: x and y are 64 bytes
    // Types unknown (no source): only sizes and PTX types are checked.
    auto param = [](std::size_t size, std::size_t align, const char* ptx) {
      KernelParam p;
      p.size = size;
      p.align = align;
      p.ptx_type = ptx;
      return p;
    };
    const KernelParam u64 = param(8, 8, ".u64"), i32 = param(4, 4, ".u32"), f64 = param(8, 8, ".f64");
    target_.kernels = {{"sum",
                        {u64, param(64, 8, ".b8[64]"), u64, param(72, 8, ".b8[72]"),
                         param(16, 4, ".b8[16]"), i32, f64}},
                       {"fill", {u64}}};
  }

  PlanRunner make(const std::string& json) {
    return PlanRunner(plan::resolve_all_ranks(*plan::parse_plan(json), target_), device_);
  }

  problem::ProblemSpec spec_;
  plan::PlanTarget target_;
  RecordingDevice device_{2};
};

constexpr const char* kTwoStreamPlan = R"J({
  "buffers": [{"name": "acc", "kind": "local", "dtype": "fp32", "shape": ["M", "N"]},
              {"name": "stage", "kind": "symmetric", "dtype": "P", "shape": ["N"]}],
  "steps": [
    {"op": "memset", "buffer": "acc", "value": 0, "record": "zeroed"},
    {"op": "kernel", "kernel": "sum", "stream": 1, "wait": ["zeroed"], "grid": ["W"], "block": [128],
     "args": ["x[N]", "peers(x)", "y", "signals", "ctx", "i32(M * N - rank)", "f64(0.5)"], "record": "done"},
    {"op": "copy", "dst": "y", "src": "stage", "count": "N", "src_rank": "(rank + 1) % W", "wait": ["done"]}
  ]})J";

TEST_F(PlanRunnerTest, BuffersAreAlignedAndDisjointPerRank) {
  PlanRunner runner = make(kTwoStreamPlan);
  std::map<int, std::vector<RecordingDevice::Allocation>> by_rank;
  for (const auto& a : device_.allocations) by_rank[a.rank].push_back(a);
  ASSERT_EQ(by_rank.size(), 2u);
  for (auto& [rank, allocs] : by_rank) {
    std::sort(allocs.begin(), allocs.end(), [](auto& l, auto& r) { return l.addr < r.addr; });
    for (std::size_t i = 0; i < allocs.size(); ++i) {
      EXPECT_EQ(allocs[i].addr % 256, 0u);
      if (i + 1 < allocs.size()) {
        EXPECT_LE(allocs[i].addr + allocs[i].bytes, allocs[i + 1].addr);
      }
    }
  }
  // x, y, stage and the signal pad are symmetric; acc is local: 4 + 1 allocations per rank.
  EXPECT_EQ(by_rank[0].size(), 5u);
  EXPECT_EQ(runner.signal_pad_bytes(), 65536u * 4u);
  EXPECT_NE(runner.address(0, "x"), runner.address(1, "x"));
}

TEST_F(PlanRunnerTest, ArgumentsAreMarshalledInPkbCuhLayouts) {
  PlanRunner runner = make(kTwoStreamPlan);
  const auto& kernel = runner.plan(1).steps[1].kernel;
  const auto params = runner.marshal_args(1, kernel);
  ASSERT_EQ(params.size(), 7u);
  EXPECT_EQ(field_at<std::uint64_t>(params[0], 0), runner.address(1, "x") + 8 * 2);  // x[N], bf16
  ASSERT_EQ(params[1].size(), 64u);
  EXPECT_EQ(field_at<std::uint64_t>(params[1], 0), runner.address(0, "x"));
  EXPECT_EQ(field_at<std::uint64_t>(params[1], 8), runner.address(1, "x"));
  EXPECT_EQ(field_at<std::uint64_t>(params[1], 16), 0u) << "slots past W are null";
  EXPECT_EQ(field_at<std::uint64_t>(params[2], 0), runner.address(1, "y"));
  ASSERT_EQ(params[3].size(), 72u);
  EXPECT_EQ(field_at<std::uint64_t>(params[3], 0), runner.signal_pad(0));
  EXPECT_EQ(field_at<std::uint64_t>(params[3], 8), runner.signal_pad(1));
  EXPECT_EQ(field_at<std::int32_t>(params[3], 64), 1) << "SignalPad.rank";
  EXPECT_EQ(field_at<std::int32_t>(params[3], 68), 2) << "SignalPad.world";
  ASSERT_EQ(params[4].size(), 16u);
  EXPECT_EQ(field_at<std::int32_t>(params[4], 0), 1);
  EXPECT_EQ(field_at<std::int32_t>(params[4], 4), 2);
  EXPECT_EQ(field_at<std::int32_t>(params[4], 8), device_.limits().num_sms);
  EXPECT_EQ(field_at<std::int32_t>(params[4], 12), 0) << "not emulated";
  EXPECT_EQ(field_at<std::int32_t>(params[5], 0), 31);
  EXPECT_EQ(field_at<double>(params[6], 0), 0.5);
}

TEST_F(PlanRunnerTest, StreamsForkFromStreamZeroAndJoinBack) {
  PlanRunner runner = make(kTwoStreamPlan);
  runner.issue();
  const auto& log = device_.log;
  // Events: zeroed = 0, done = 1, fork = 2, join of stream s = 3 + s.
  for (const std::string r : {"r0", "r1"}) {
    const auto fork = position(log, r + " s0 record 2");
    const auto fork_wait = position(log, r + " s1 wait 2");
    const auto zeroed = position(log, r + " s0 record 0");
    const auto wait_zeroed = position(log, r + " s1 wait 0");
    const auto launch = position(log, r + " s1 launch sum grid 2,1,1 block 128,1,1 shared 0");
    const auto join = position(log, r + " s1 record 4");
    const auto join_wait = position(log, r + " s0 wait 4");
    EXPECT_LT(fork, fork_wait);
    EXPECT_LT(fork_wait, launch);
    EXPECT_LT(zeroed, wait_zeroed);
    EXPECT_LT(wait_zeroed, launch);
    EXPECT_LT(launch, join);
    EXPECT_LT(join, join_wait);
  }
  // Lockstep: the kernel step goes out on both ranks before the copy step on either.
  EXPECT_LT(position(log, "r1 s1 launch sum grid 2,1,1 block 128,1,1 shared 0"),
            position(log, "r0 s0 wait 1"));
}

TEST_F(PlanRunnerTest, PeerCopiesUseThePeersAddress) {
  PlanRunner runner = make(kTwoStreamPlan);
  runner.issue();
  const std::string copy0 = "r0 s0 copy " + RecordingDevice::hex(runner.address(0, "y")) + " " +
                            RecordingDevice::hex(runner.address(1, "stage")) + " 16";
  EXPECT_NO_FATAL_FAILURE(position(device_.log, copy0));
}

TEST_F(PlanRunnerTest, CollectivesOfOneStepShareAGroup) {
  PlanRunner runner = make(R"J({"steps": [
      {"op": "collective", "kind": "all_reduce", "send": "x", "recv": "y", "count": "M * N"},
      {"op": "gemm", "a": "x", "b": "x", "c": "y", "m": 4, "n": 4, "k": 4, "trans_b": true, "ldb": 8}]})J");
  runner.issue();
  const auto& log = device_.log;
  const auto begin = position(log, "group_begin");
  const auto end = position(log, "group_end");
  const std::string r1 = "r1 s0 collective all_reduce " + RecordingDevice::hex(runner.address(1, "x")) + " " +
                         RecordingDevice::hex(runner.address(1, "y")) + " 32 bf16";
  EXPECT_LT(begin, position(log, r1));
  EXPECT_LT(position(log, r1), end);
  EXPECT_LT(end, position(log, "r0 s0 gemm " + RecordingDevice::hex(runner.address(0, "x")) + " " +
                                   RecordingDevice::hex(runner.address(0, "x")) + " " +
                                   RecordingDevice::hex(runner.address(0, "y")) + " 4x4x4 ld 4,8,4 bf16->bf16"));
  EXPECT_EQ(runner.library_steps(), (std::vector<std::string>{"collective:all_reduce", "gemm"}));
}

TEST_F(PlanRunnerTest, InputSetsMoveInputsButNotOutputs) {
  PlanRunner runner = make(kTwoStreamPlan);
  const int set = runner.add_input_set();
  EXPECT_EQ(set, 1);
  const int x = runner.plan(0).find_buffer("x"), y = runner.plan(0).find_buffer("y");
  EXPECT_NE(runner.address(0, x, 1), runner.address(0, x, 0));
  EXPECT_EQ(runner.address(0, y, 1), runner.address(0, y, 0));
  const auto params = runner.marshal_args(0, runner.plan(0).steps[1].kernel, 1);
  EXPECT_EQ(field_at<std::uint64_t>(params[1], 8), runner.address(1, x, 1)) << "peers() follow the input set";
  EXPECT_GE(runner.first_free_event(), 2 + 1 + plan::kMaxStreams);
}

TEST_F(PlanRunnerTest, EmulatedDevicesSetTheContextFlag) {
  RecordingDevice emulated(2, true);
  PlanRunner runner(plan::resolve_all_ranks(*plan::parse_plan(kTwoStreamPlan), target_), emulated);
  const auto params = runner.marshal_args(0, runner.plan(0).steps[1].kernel);
  EXPECT_EQ(field_at<std::int32_t>(params[4], 12), 1);
}

}  // namespace
}  // namespace pkb::harness
