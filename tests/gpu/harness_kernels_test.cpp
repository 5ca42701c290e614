// The harness's own kernels compile with NVRTC (no GPU needed), and their parameters have the
// sizes CudaDevice marshals (cuda_device_work.cpp: barrier and delay; cuda_device_collectives.cpp:
// reduce).
#include "harness/cuda/harness_kernels.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "src/compile/compile.h"

namespace pkb::harness {
namespace {

std::vector<std::size_t> param_sizes(const std::vector<compile::KernelSignature>& kernels,
                                     const std::string& name) {
  for (const auto& kernel : kernels)
    if (kernel.name == name) {
      std::vector<std::size_t> sizes;
      for (const auto& param : kernel.params) sizes.push_back(param.size);
      return sizes;
    }
  ADD_FAILURE() << name << " not in the PTX";
  return {};
}

class HarnessKernels : public testing::TestWithParam<std::string> {};

TEST_P(HarnessKernels, CompileWithTheMarshalledSignatures) {
  const HarnessBinary binary = compile_harness_kernels(GetParam());
  EXPECT_FALSE(binary.cubin.empty());
  const auto kernels = compile::parse_ptx_entries(binary.ptx);
  // pads (8 pointers), rank, world, slot, epoch
  EXPECT_EQ(param_sizes(kernels, kBarrierKernel), (std::vector<std::size_t>{64, 4, 4, 4, 4}));
  EXPECT_EQ(param_sizes(kernels, kDelayKernel), (std::vector<std::size_t>{8}));
  // sources (8 pointers), n, dst, count, type, op
  EXPECT_EQ(param_sizes(kernels, kReduceKernel), (std::vector<std::size_t>{64, 4, 8, 8, 4, 4}));
  // fp16 and bf16 go through PTX conversions, rounding to nearest on the way back.
  EXPECT_NE(binary.ptx.find("cvt.rn.bf16.f32"), std::string::npos);
  EXPECT_NE(binary.ptx.find("cvt.rn.f16.f32"), std::string::npos);
  // The barrier must signal with system-scope release and wait with system-scope acquire.
  EXPECT_NE(binary.ptx.find("st.release.sys"), std::string::npos);
  EXPECT_NE(binary.ptx.find("ld.acquire.sys"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Archs, HarnessKernels, testing::Values("sm_90", "sm_100"));

TEST(HarnessKernelsErrors, BadArchIsAnErrorWithTheLog) {
  EXPECT_THROW(compile_harness_kernels("sm_7"), Error);
}

}  // namespace
}  // namespace pkb::harness
