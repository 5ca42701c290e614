// Plans that parse but do not fit the problem or the device: kernels and their arguments,
// launch limits, sizes, read-only inputs, symmetric sizes, peer ranges.
#include "tests/plan/plan_fixture.h"

namespace pkb::plan {
namespace {

std::string steps(const std::string& body, const std::string& buffers = "[]") {
  return "{\"buffers\": " + buffers + ", \"steps\": [" + body + "]}";
}

TEST_F(PlanTest, AValidPlanResolvesOnEveryRank) {
  const auto plans = resolve(steps(allreduce_step(),
                                   R"J([{"name": "acc", "kind": "local", "dtype": "fp32", "shape": ["M", "N / W"]}])J"));
  ASSERT_EQ(plans.size(), 4u);
  const auto& rank2 = plans[2];
  EXPECT_EQ(rank2.rank, 2);
  ASSERT_EQ(rank2.buffers.size(), 3u);  // x, y, acc
  EXPECT_EQ(rank2.buffers[0].name, "x");
  EXPECT_EQ(rank2.buffers[0].role, BufferRole::input);
  EXPECT_EQ(rank2.buffers[0].kind, BufferKind::symmetric);
  EXPECT_EQ(rank2.buffers[0].bytes, 4u * 8u * 2u);  // bf16 [4, 8]
  EXPECT_EQ(rank2.buffers[2].bytes, 4u * 2u * 4u);  // fp32 [4, 8 / 4]
  const auto& kernel = rank2.steps.at(0).kernel;
  EXPECT_EQ(kernel.grid.x, 1u);
  EXPECT_EQ(kernel.block.x, 256u);
  ASSERT_EQ(kernel.args.size(), 5u);
  EXPECT_EQ(kernel.args[1].kind, ArgKind::peers);
  EXPECT_EQ(kernel.args[3].kind, ArgKind::signals);
  EXPECT_EQ(kernel.args[4].int_value, 32);
}

TEST_F(PlanTest, UnknownKernelSuggestsTheClosest) {
  const std::string message = error_of(steps(R"J({"op": "kernel", "kernel": "allreduc", "grid": 1, "block": 1})J"));
  EXPECT_EQ(message, "plan: steps[0].kernel: 'allreduc' is not an extern \"C\" __global__ kernel of the source, "
                     "did you mean 'allreduce'? (kernels: allreduce, scale) (rank 0 of 4)");
}

TEST_F(PlanTest, UnknownBufferInAnArgument) {
  const std::string message = error_of(steps(
      R"J({"op": "kernel", "kernel": "scale", "grid": 1, "block": 1, "args": ["z", "f32(2)"]})J"));
  EXPECT_EQ(message, "plan: steps[0].args[0]: unknown buffer 'z' (buffers: x, y) (rank 0 of 4)");
}

TEST_F(PlanTest, ArgumentCountAndSizeMustMatchTheKernel) {
  EXPECT_NE(error_of(steps(R"J({"op": "kernel", "kernel": "scale", "grid": 1, "block": 1, "args": ["y"]})J"))
                .find("kernel 'scale' takes 2 parameters, the plan passes 1"),
            std::string::npos);
  EXPECT_NE(error_of(steps(R"J({"op": "kernel", "kernel": "scale", "grid": 1, "block": 1,
                               "args": ["peers(y)", "f32(2)"]})J"))
                .find("\"peers(y)\" is 64 bytes, but parameter 0 of 'scale' is 8 bytes (.u64)"),
            std::string::npos);
  EXPECT_NE(error_of(steps(R"J({"op": "kernel", "kernel": "scale", "grid": 1, "block": 1, "args": ["y", "i32(2)"]})J"))
                .find("\"i32(2)\" is an integer or pointer value, but parameter 1 of 'scale' is .f32"),
            std::string::npos);
}

TEST_F(PlanTest, LaunchLimits) {
  EXPECT_NE(error_of(steps(allreduce_step("\"block\": [2048]"))).find("steps[0].block[0]: block x is 2048, over"),
            std::string::npos);
  EXPECT_NE(error_of(steps(allreduce_step("\"block\": [64, 32]"))).find("a block of 2048 threads"),
            std::string::npos);
  EXPECT_NE(error_of(steps(allreduce_step("\"grid\": [1, 70000]"))).find("grid y is 70000"), std::string::npos);
  EXPECT_NE(error_of(steps(allreduce_step("\"grid\": [0]"))).find("steps[0].grid[0]: expected a size of at least 1"),
            std::string::npos);
  EXPECT_NE(error_of(steps(allreduce_step("\"shared_bytes\": 300000"))).find("300000 bytes of shared memory"),
            std::string::npos);
}

TEST_F(PlanTest, SizeMessagesShowTheValueGiven) {
  EXPECT_EQ(error_of(steps(allreduce_step("\"grid\": [\"4294967296\"]"))),
            "plan: steps[0].grid[0]: grid x is 4294967296, over the device's limit of 2147483647 (rank 0 of 4)");
  EXPECT_EQ(error_of(steps(allreduce_step("\"grid\": [1, 4294967296]"))),
            "plan: steps[0].grid[1]: grid y is 4294967296, over the device's limit of 65535 (rank 0 of 4)");
  EXPECT_EQ(error_of(steps(allreduce_step("\"grid\": [18446744073709551615]"))),
            "plan: steps[0].grid[0]: expression \"18446744073709551615\": the number 18446744073709551615 does not "
            "fit a 64-bit signed integer");
}

TEST_F(PlanTest, ABufferSizeThatOverflowsIsRefusedNotWrapped) {
  EXPECT_EQ(error_of(steps(allreduce_step(), R"J([{"name": "wrap", "kind": "local", "dtype": "fp32",
                                                   "shape": ["4611686018427387904 * 4 + 16"]}])J")),
            "plan: buffers[0].shape[0]: expression \"4611686018427387904 * 4 + 16\": 4611686018427387904 * 4 "
            "overflows 64-bit integers (rank 0 of 4)");
}

TEST_F(PlanTest, BufferSizesOverflowOrExceedTheCap) {
  EXPECT_NE(error_of(steps(allreduce_step(),
                           R"J([{"name": "huge", "kind": "local", "dtype": "fp32", "shape": [4294967296, 4294967296]}])J"))
                .find("'huge' is too large: its byte count overflows"),
            std::string::npos);
  target_.limits.memory_cap_bytes = 1 << 20;
  EXPECT_NE(error_of(steps(allreduce_step(),
                           R"J([{"name": "big", "kind": "symmetric", "dtype": "fp32", "shape": [1048576]}])J"))
                .find("over the cap of"),
            std::string::npos);
  EXPECT_NE(error_of(steps(allreduce_step(), R"J([{"name": "neg", "kind": "local", "dtype": "fp32", "shape": ["-1"]}])J"))
                .find("buffers[0].shape[0]: a size must not be negative"),
            std::string::npos);
}

TEST_F(PlanTest, BufferNamesMustBeNew) {
  EXPECT_NE(error_of(steps(allreduce_step(), R"J([{"name": "y", "kind": "local", "dtype": "P", "shape": [1]}])J"))
                .find("buffers[0].name: 'y' is already the problem's output"),
            std::string::npos);
  EXPECT_NE(error_of(steps(allreduce_step(), R"J([{"name": "signals", "kind": "local", "dtype": "P", "shape": [1]}])J"))
                .find("'signals' is a reserved name"),
            std::string::npos);
}

TEST_F(PlanTest, InputsAreReadOnly) {
  EXPECT_NE(error_of(steps(R"J({"op": "memset", "buffer": "x"})J")).find("steps[0].buffer: 'x' is an input"),
            std::string::npos);
  EXPECT_NE(error_of(steps(R"J({"op": "copy", "dst": "x", "src": "y", "count": 4})J")).find("steps[0].dst: 'x' is an input"),
            std::string::npos);
  EXPECT_NE(error_of(steps(R"J({"op": "collective", "kind": "all_reduce", "send": "y", "recv": "x", "count": 32})J"))
                .find("steps[0].recv: 'x' is an input"),
            std::string::npos);
  EXPECT_NE(error_of(steps(R"J({"op": "gemm", "a": "y", "b": "y", "c": "x", "m": 4, "n": 4, "k": 4})J"))
                .find("steps[0].c: 'x' is an input"),
            std::string::npos);
}

TEST_F(PlanTest, RangesOfDataSteps) {
  EXPECT_NE(error_of(steps(R"J({"op": "copy", "dst": "y", "src": "x", "count": "M * N + 1"})J"))
                .find("steps[0].dst: elements [0, 33) are outside 'y', which holds 32"),
            std::string::npos);
  EXPECT_NE(error_of(steps(R"J({"op": "collective", "kind": "all_gather", "send": "x", "recv": "y", "count": 16})J"))
                .find("steps[0].recv: elements [0, 64) are outside 'y'"),
            std::string::npos);
  EXPECT_NE(error_of(steps(R"J({"op": "gemm", "a": "x", "b": "x", "c": "y", "m": 4, "n": 8, "k": 8})J"))
                .find("steps[0].b: elements [0, 64) are outside 'x'"),
            std::string::npos);
  EXPECT_NO_THROW(resolve(steps(R"J({"op": "collective", "kind": "reduce_scatter", "send": "x", "recv": "y",
                                    "count": 8})J")));
  EXPECT_NO_THROW(resolve(steps(R"J({"op": "copy", "dst": "y", "src": "x", "count": 8, "src_rank": "(rank + 1) % W"})J")));
}

TEST_F(PlanTest, SymmetricBuffersHaveOneSize) {
  EXPECT_NE(error_of(steps(allreduce_step(), R"J([{"name": "s", "kind": "symmetric", "dtype": "P", "shape": ["rank + 1"]}])J"))
                .find("'s' is symmetric but has 2 bytes on rank 0 and 4 on rank 1"),
            std::string::npos);
}

TEST_F(PlanTest, PeersAndMulticastNeedTheRightKind) {
  target_.kernels.push_back({"take_peers", {blob(64)}});
  target_.kernels.push_back({"take_mc", {u64()}});
  const std::string local = R"J([{"name": "l", "kind": "local", "dtype": "P", "shape": [1]}])J";
  EXPECT_NE(error_of(steps(R"J({"op": "kernel", "kernel": "take_peers", "grid": 1, "block": 1, "args": ["peers(l)"]})J", local))
                .find("'l' is local: peers() needs a symmetric or multicast buffer"),
            std::string::npos);
  EXPECT_NE(error_of(steps(R"J({"op": "kernel", "kernel": "take_mc", "grid": 1, "block": 1, "args": ["multicast(x)"]})J"))
                .find("multicast() needs a buffer of kind multicast"),
            std::string::npos);
  target_.limits.multicast = false;
  EXPECT_NE(error_of(steps(allreduce_step(), R"J([{"name": "m", "kind": "multicast", "dtype": "P", "shape": [8]}])J"))
                .find("multicast buffers need NVSwitch multicast"),
            std::string::npos);
}

TEST_F(PlanTest, PeerCopiesAreCheckedAgainstThePeersSize) {
  // Problem 5 (scatter): x holds W chunks on rank 0 and nothing elsewhere.
  spec_ = problem::load_problem(std::string(PKB_SOURCE_DIR) + "/problems/005_scatter");
  target_.dims = spec_.test_dims;
  const std::string plan = steps(R"J({"op": "copy", "dst": "y", "src": "chunks", "count": 1, "src_rank": "(rank + 1) % W"})J");
  EXPECT_NE(error_of(plan).find("are outside 'chunks' on rank 1, which holds 0 (rank 0 of 4)"), std::string::npos);
}

TEST_F(PlanTest, InoutTensorsAreOneBufferNamedOnce) {
  spec_ = problem::load_problem(std::string(PKB_SOURCE_DIR) + "/problems/021_clip_grad_norm_no_ep");
  target_.dims = spec_.test_dims;
  // total_norm is a plain output: a memset names it, so only the inout tensors are left unwritten.
  const auto plans = resolve(steps(R"J({"op": "memset", "buffer": "total_norm"})J"));
  int inout = 0;
  for (const auto& buffer : plans[0].buffers) {
    if (!buffer.inout) continue;
    ++inout;
    EXPECT_EQ(buffer.role, BufferRole::output);
    int named = 0;
    for (const auto& other : plans[0].buffers) named += other.name == buffer.name;
    EXPECT_EQ(named, 1) << buffer.name;
  }
  EXPECT_GT(inout, 0);
}

}  // namespace
}  // namespace pkb::plan
