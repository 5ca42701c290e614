// harness/include/pkb/pkb.cuh under the real NVRTC: every function compiles to the PTX it promises
// on every arch, the by-value structs have the byte layout the harness marshals, the header adds
// no module globals, and multicast exists only when the run has it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/compile/compile.h"
#include "tests/examples/example_files.h"

namespace pkb::examples_test {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct Target {
  std::string arch;
  bool multicast;
};

class PkbHeaderOn : public ::testing::TestWithParam<Target> {};

TEST_P(PkbHeaderOn, CompilesEveryFunctionToItsPtx) {
  const Target target = GetParam();
  const compile::CompileResult result =
      compile::compile_cuda(read_text(PKB_SOURCE_DIR "/tests/examples/data/pkb_probe.cu"),
                            compile_options(target.arch, target.multicast, 8));
  ASSERT_TRUE(result.ok) << result.log;
  EXPECT_FALSE(contains(result.log, "warning")) << result.log;
  ASSERT_EQ(result.kernels.size(), 1u);
  EXPECT_EQ(result.kernels[0].name, "pkb_probe");
  for (const char* instruction :
       {"ld.acquire.sys.u32", "ld.relaxed.sys.u32", "st.release.sys.u32", "st.relaxed.sys.u32",
        "atom.add.release.sys.u32", "atom.add.acq_rel.sys.u32", "atom.add.relaxed.sys.u32",
        "fence.acq_rel.sys", "%globaltimer", "trap;", "bar.sync"})
    EXPECT_TRUE(contains(result.ptx, instruction)) << instruction;
  EXPECT_EQ(contains(result.ptx, "multimem.ld_reduce.relaxed.sys.global.add.acc::f32.v4.bf16x2"),
            target.multicast);
  EXPECT_EQ(contains(result.ptx, "multimem.st.relaxed.sys.global.v4.f32"), target.multicast);
  EXPECT_EQ(contains(result.ptx, "multimem.red.relaxed.sys.global.add.v4.bf16x2"),
            target.multicast);
  // Peers and SignalPad are indexed with runtime ranks; the select accessors keep them out of
  // local memory (a plain ptr[r] on a by-value parameter copies the struct to the stack).
  EXPECT_TRUE(contains(result.log, "0 bytes stack frame")) << result.log;
}

INSTANTIATE_TEST_SUITE_P(Arch, PkbHeaderOn,
                         ::testing::Values(Target{"sm_90a", false}, Target{"sm_90a", true},
                                           Target{"sm_100a", false}, Target{"sm_100a", true}),
                         [](const ::testing::TestParamInfo<Target>& target) {
                           return target.param.arch +
                                  (target.param.multicast ? "_multicast" : "_unicast");
                         });

constexpr const char* kLayoutSource = R"(
static_assert(sizeof(pkb::Context) == 16 && alignof(pkb::Context) == 4, "Context");
static_assert(sizeof(pkb::Peers<float>) == 64 && alignof(pkb::Peers<float>) == 8, "Peers");
static_assert(sizeof(pkb::Peers<const __nv_bfloat16>) == 64, "Peers<const T>");
static_assert(sizeof(pkb::SignalPad) == 72 && alignof(pkb::SignalPad) == 8, "SignalPad");
static_assert(pkb::kMaxRanks == 8 && pkb::kBarrierSlots == 1024 && pkb::kUserWords == 32768, "sizes");
static_assert(pkb::kSignalWords == 65536 && pkb::kUserBase == 32768 && pkb::kBarrierEpochBase == 8192,
              "pad layout");
extern "C" __global__ void layout(pkb::Context ctx, pkb::Peers<float> peers,
                                  pkb::Peers<const __nv_bfloat16> inputs, pkb::SignalPad signals) {}
)";

TEST(PkbHeader, StructsHaveTheLayoutTheHarnessMarshals) {
  const compile::CompileResult result =
      compile::compile_cuda(kLayoutSource, compile_options("sm_90a", false, 2));
  ASSERT_TRUE(result.ok) << result.log;
  ASSERT_EQ(result.kernels.size(), 1u);
  const std::vector<compile::KernelParam>& params = result.kernels[0].params;
  ASSERT_EQ(params.size(), 4u);
  const std::size_t sizes[] = {16, 64, 64, 72};
  const std::size_t aligns[] = {4, 8, 8, 8};
  for (std::size_t i = 0; i < params.size(); ++i) {
    EXPECT_EQ(params[i].size, sizes[i]) << "param " << i;
    EXPECT_EQ(params[i].align, aligns[i]) << "param " << i;
  }
}

TEST(PkbHeader, AWrongSizeAssertionFails) {
  // The control for the test above: the assertions are really evaluated against the header.
  const compile::CompileResult result =
      compile::compile_cuda("static_assert(sizeof(pkb::SignalPad) == 64, \"pad is 72 bytes\");\n",
                            compile_options("sm_90a", false, 2));
  EXPECT_FALSE(result.ok);
  EXPECT_TRUE(contains(result.log, "pad is 72 bytes")) << result.log;
}

TEST(PkbHeader, AddsNoModuleGlobals) {
  // The harness treats a __device__ global as candidate state kept across calls, so the header
  // itself must define none (its constants are enumerators for this reason).
  const compile::CompileResult result = compile::compile_cuda(
      "extern \"C\" __global__ void empty(int* out) { out[0] = pkb::kMaxRanks; }\n",
      compile_options("sm_90a", true, 4));
  ASSERT_TRUE(result.ok) << result.log;
  EXPECT_FALSE(contains(result.ptx, "\n.global")) << result.ptx;
  EXPECT_FALSE(contains(result.ptx, "\n.const")) << result.ptx;
  EXPECT_TRUE(contains(result.log, "0 bytes gmem")) << result.log;
}

constexpr const char* kMulticastUser = R"(
extern "C" __global__ void broadcast(void* mc, uint4 value) { pkb::multimem_st128(mc, value); }
)";

TEST(PkbHeader, DeclaresMulticastOnlyWhenTheRunHasIt) {
  const compile::CompileResult with =
      compile::compile_cuda(kMulticastUser, compile_options("sm_90a", true, 8));
  EXPECT_TRUE(with.ok) << with.log;
  const compile::CompileResult without =
      compile::compile_cuda(kMulticastUser, compile_options("sm_90a", false, 8));
  EXPECT_FALSE(without.ok);
  EXPECT_TRUE(contains(without.log, "multimem_st128")) << without.log;
}

TEST(PkbHeader, DefaultsTheWorldToUnknown) {
  // world 0: the harness passes no -DPKB_WORLD, and the header's default applies.
  const compile::CompileResult result = compile::compile_cuda(
      "#if PKB_WORLD != 0 || PKB_HAS_MULTICAST != 0 || PKB_SPIN_TIMEOUT_NS != 10000000000\n"
      "#error defaults\n#endif\nextern \"C\" __global__ void k() {}\n",
      compile_options("sm_90a", false, 0));
  EXPECT_TRUE(result.ok) << result.log;
}

}  // namespace
}  // namespace pkb::examples_test
