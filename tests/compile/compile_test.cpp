// compile_cuda with the real NVRTC (it runs without a GPU): signatures, compile errors, the
// deadline, the arch option, the run's macros and a child that dies.
#include "src/compile/compile.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "tests/compile/compile_fixture.h"

namespace pkb::compile {
namespace {

constexpr const char* kSignatureSource = R"(struct Words { unsigned long long w[8]; };
extern "C" __global__ void first(unsigned long long* out, Words words, unsigned k, double s) {
  out[0] = words.w[k & 7] * s;
}
extern "C" __global__ void second() {}
)";

TEST_F(CompileTest, ReadsKernelSignaturesFromThePtx) {
  const CompileResult result = compile_cuda(kSignatureSource, options());
  ASSERT_TRUE(result.ok) << result.log;
  EXPECT_FALSE(result.timed_out);
  EXPECT_FALSE(result.cache_hit);
  EXPECT_EQ(result.cubin.substr(0, 4),
            "\x7f"
            "ELF");
  EXPECT_NE(result.log.find("ptxas info"), std::string::npos) << "--ptxas-options=-v reaches ptxas";
  EXPECT_EQ(result.key.size(), 64u);
  EXPECT_EQ(result.nvrtc_version.find('.') != std::string::npos, true) << result.nvrtc_version;
  ASSERT_EQ(result.kernels.size(), 2u);
  const KernelSignature& first = result.kernels[0];
  EXPECT_EQ(first.name, "first");
  ASSERT_EQ(first.params.size(), 4u);
  const std::size_t sizes[] = {8, 64, 4, 8};
  const std::size_t aligns[] = {8, 8, 4, 8};
  const char* types[] = {".u64", ".b8[64]", ".u32", ".f64"};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(first.params[i].size, sizes[i]) << "param " << i;
    EXPECT_EQ(first.params[i].align, aligns[i]) << "param " << i;
    EXPECT_EQ(first.params[i].ptx_type, types[i]) << "param " << i;
  }
  EXPECT_EQ(result.kernels[1].name, "second");
  EXPECT_TRUE(result.kernels[1].params.empty());
}

TEST_F(CompileTest, SyntaxErrorIsAResultNamingTheLine) {
  const CompileResult result = compile_cuda(
      "extern \"C\" __global__ void broken(int* out) {\n  out[0] = 1;\n  out[1] = ;\n}\n",
      options());
  EXPECT_FALSE(result.ok);
  EXPECT_FALSE(result.timed_out);
  EXPECT_NE(result.log.find("candidate.cu(3): error"), std::string::npos) << result.log;
  EXPECT_TRUE(result.cubin.empty());
  EXPECT_TRUE(result.kernels.empty());
}

TEST_F(CompileTest, StopsARunawayCompileAtTheDeadline) {
  CompileOptions slow = options();
  slow.timeout_s = 2;
  const CompileResult result =
      compile_cuda(read_file(PKB_SOURCE_DIR "/tests/compile/data/slow_constexpr.cu"), slow);
  EXPECT_FALSE(result.ok);
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.log, "compile timed out after 2 s");
  EXPECT_GE(result.seconds, 2.0);
  EXPECT_LT(result.seconds, 5.0) << "the child is killed at the deadline, not when NVRTC gives up";
  EXPECT_FALSE(std::filesystem::exists(cache_dir() / result.key.substr(0, 2) / result.key))
      << "a timeout is not cached: the next try may be on a faster machine";
}

constexpr const char* kMacroSource =
    R"(#if PKB_WORLD != 4 || PKB_HAS_MULTICAST != 1 || PKB_SPIN_TIMEOUT_NS != 1234 || EXTRA != 7
#error the run's macros did not arrive
#endif
extern "C" __global__ void uses_macros(int* out) { out[0] = PKB_WORLD; }
)";

TEST_F(CompileTest, PassesTheRunsMacros) {
  CompileOptions run = options();
  run.world = 4;
  run.multicast = true;
  run.spin_timeout_ns = 1234;
  run.extra_options = {"-DEXTRA=7"};
  const CompileResult result = compile_cuda(kMacroSource, run);
  EXPECT_TRUE(result.ok) << result.log;

  run.world = 2;
  const CompileResult wrong = compile_cuda(kMacroSource, run);
  EXPECT_FALSE(wrong.ok);
  EXPECT_NE(wrong.log.find("the run's macros did not arrive"), std::string::npos) << wrong.log;
}

// PKB_WORLD only reaches a source that names it: otherwise one compile serves every W.
TEST_F(CompileTest, OneCompileServesEveryWorldUnlessTheSourceNamesPkbWorld) {
  CompileOptions run = options();
  run.world = 2;
  const std::string plain = "extern \"C\" __global__ void k(int* y) { y[0] = 1; }\n";
  const CompileResult two = compile_cuda(plain, run);
  run.world = 8;
  const CompileResult eight = compile_cuda(plain, run);
  ASSERT_TRUE(two.ok && eight.ok) << two.log << eight.log;
  EXPECT_EQ(two.key, eight.key);
  EXPECT_TRUE(eight.cache_hit);
  const std::string named = "extern \"C\" __global__ void k(int* y) { y[0] = PKB_WORLD; }\n";
  const CompileResult named_eight = compile_cuda(named, run);
  run.world = 2;
  const CompileResult named_two = compile_cuda(named, run);
  EXPECT_NE(named_two.key, named_eight.key);
  EXPECT_FALSE(named_two.cache_hit);
}

TEST_F(CompileTest, CompilesForSm100a) {
  CompileOptions blackwell = options();
  blackwell.arch = "sm_100a";
  const CompileResult result = compile_cuda(kSignatureSource, blackwell);
  ASSERT_TRUE(result.ok) << result.log;
  EXPECT_NE(result.ptx.find(".target sm_100a"), std::string::npos);
  EXPECT_EQ(result.options[0], "--gpu-architecture=sm_100a");
}

TEST_F(CompileTest, RejectsSm70WithNvrtcsMessage) {
  CompileOptions volta = options();
  volta.arch = "sm_70";
  const CompileResult result = compile_cuda(kSignatureSource, volta);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.log.find("invalid value for --gpu-architecture"), std::string::npos)
      << result.log;
}

TEST_F(CompileTest, RejectsAComputeArchBeforeCompiling) {
  CompileOptions ptx_only = options();
  ptx_only.arch = "compute_90";
  try {
    compile_cuda(kSignatureSource, ptx_only);
    FAIL() << "expected a UsageError";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "arch 'compute_90': expected sm_NN, sm_NNa or sm_NNf (for example sm_90a)");
  }
}

TEST_F(CompileTest, MissingDeviceHeaderIsPkbsError) {
  CompileOptions bare = options();
  bare.include_dir = root();
  try {
    compile_cuda(kSignatureSource, bare);
    FAIL() << "expected a pkb::Error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              (root() / "pkb/pkb.cuh").string() +
                  ": not found: the device header is needed by every candidate (set PKB_INCLUDE)");
  }
}

TEST_F(CompileTest, ADyingChildIsAResultWithItsSignalAndStderr) {
  use_fake_nvrtc("crashing-nvrtc",
                 "[ \"$1\" = --version ] && { echo 13.0; exit 0; }\n"
                 "echo 'internal compiler meltdown' >&2\nkill -SEGV $$");
  const CompileResult result = compile_cuda(kSignatureSource, options());
  EXPECT_FALSE(result.ok);
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.log, "pkb-nvrtc died: signal 11\ninternal compiler meltdown\n");
  EXPECT_FALSE(std::filesystem::exists(cache_dir() / result.key.substr(0, 2) / result.key))
      << "a crash is not cached";
}

TEST_F(CompileTest, TheChildsCpuLimitCountsAsATimeout) {
  use_fake_nvrtc("cpu-bound-nvrtc",
                 "[ \"$1\" = --version ] && { echo 13.0; exit 0; }\nkill -XCPU $$");
  const CompileResult result = compile_cuda(kSignatureSource, options());
  EXPECT_FALSE(result.ok);
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.log, "compile timed out: pkb-nvrtc exceeded its cpu time limit");
}

TEST_F(CompileTest, AChildThatFailsWithoutAnAnswerIsAResult) {
  use_fake_nvrtc("oom-nvrtc",
                 "[ \"$1\" = --version ] && { echo 13.0; exit 0; }\n"
                 "echo 'pkb-nvrtc: out of memory' >&2\nexit 1");
  const CompileResult result = compile_cuda(kSignatureSource, options());
  EXPECT_FALSE(result.ok);
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.log, "pkb-nvrtc failed: exit code 1\npkb-nvrtc: out of memory\n");
}

TEST_F(CompileTest, ABadRequestIsPkbsError) {
  use_fake_nvrtc(
      "refusing-nvrtc",
      "[ \"$1\" = --version ] && { echo 13.0; exit 0; }\necho 'no request.json' >&2\nexit 2");
  EXPECT_THROW(compile_cuda(kSignatureSource, options()), Error);
}

// Candidates include C and C++ headers out of habit; NVRTC ships none, the shims stand in.
TEST_F(CompileTest, ShimsStandInForTheStandardHeaders) {
  const CompileResult result = compile_cuda(R"(#include <stdint.h>
#include <cstdint>
#include <stddef.h>
#include <cstddef>
#include <limits.h>
#include <climits>
#include <stdbool.h>
#include <stdlib.h>
#include <cstdlib>
#include <stdio.h>
#include <cstdio>
#include <assert.h>
#include <cassert>
#include <math.h>
#include <cmath>
struct Pair { int a; long long b; };
extern "C" __global__ void uses_std(std::uint64_t* out, std::size_t n, float x) {
  assert(n > 0);
  if (n == 7) printf("%d\n", INT_MAX);
  const uint32_t small = UINT32_MAX;
  const std::int64_t big = INT64_MIN;
  out[0] = small + big + offsetof(Pair, b) + sizeof(std::nullptr_t) + CHAR_BIT + sqrtf(x);
})",
                                            options());
  EXPECT_TRUE(result.ok) << result.log;
}

// The real pkb.cuh, with the byte layouts that the harness marshals (ABI: Context 16, Peers 64,
// SignalPad 72 bytes, all passed by value).
TEST_F(CompileTest, RealDeviceHeaderCompilesWithTheAbiLayouts) {
  CompileOptions real = options();
  real.include_dir.clear();
  real.world = 2;
  const CompileResult result = compile_cuda(R"(extern "C" __global__ void abi(
    pkb::Context ctx, pkb::Peers<__nv_bfloat16> peers, pkb::SignalPad signals, float* out) {
  out[threadIdx.x] = ctx.rank + (peers.ptr[0] != nullptr) + signals.world;
})",
                                            real);
  ASSERT_TRUE(result.ok) << result.log;
  ASSERT_EQ(result.kernels.size(), 1u);
  const auto& params = result.kernels[0].params;
  ASSERT_EQ(params.size(), 4u);
  EXPECT_EQ(params[0].size, 16u);
  EXPECT_EQ(params[1].size, 64u);
  EXPECT_EQ(params[2].size, 72u);
  EXPECT_EQ(params[3].size, 8u);
  EXPECT_EQ(params[1].align, 8u);
  EXPECT_EQ(params[2].align, 8u);
}

}  // namespace
}  // namespace pkb::compile

namespace pkb::compile {
namespace {

// The C++ parameter types come back with typedefs resolved: pkb::P is the run precision's type, so
// the same source reports bf16 at PKB_DTYPE_BF16 and float at PKB_DTYPE_FP32.
TEST_F(CompileTest, ReportsEachParametersCxxTypeAtTheRunsPrecision) {
  CompileOptions real = options();
  real.include_dir.clear();
  real.world = 2;
  const std::string source = R"(extern "C" __global__ void scale(const pkb::P* __restrict__ x, pkb::P* y,
    long long n, pkb::Peers<const pkb::P> xs, pkb::SignalPad signals, uint4* raw) {
  y[0] = x[0]; (void)n; (void)xs; (void)signals; (void)raw;
}
extern "C" __global__ void empty() {}
)";
  real.dtype = "bf16";
  const CompileResult bf16 = compile_cuda(source, real);
  ASSERT_TRUE(bf16.ok) << bf16.log;
  ASSERT_EQ(bf16.kernels.size(), 2u);
  const auto& params = bf16.kernels[0].params;
  ASSERT_EQ(params.size(), 6u);
  const char* types[] = {"__nv_bfloat16 const*", "__nv_bfloat16*", "long long", "pkb::Peers<__nv_bfloat16 const>",
                         "pkb::SignalPad", "uint4*"};
  const char* names[] = {"x", "y", "n", "xs", "signals", "raw"};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(params[i].source_type, types[i]) << "param " << i;
    EXPECT_EQ(params[i].name, names[i]) << "param " << i;
  }
  real.dtype = "fp32";
  const CompileResult fp32 = compile_cuda(source, real);
  ASSERT_TRUE(fp32.ok) << fp32.log;
  EXPECT_NE(fp32.key, bf16.key);
  EXPECT_EQ(fp32.kernels[0].params[0].source_type, "float const*");
  // From the cache the types are the same.
  const CompileResult cached = compile_cuda(source, real);
  EXPECT_TRUE(cached.cache_hit);
  EXPECT_EQ(cached.kernels[0].params[3].source_type, "pkb::Peers<float const>");
}

}  // namespace
}  // namespace pkb::compile
