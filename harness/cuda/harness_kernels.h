// The harness kernels (harness_kernels.cu): their source, embedded at build time, and an NVRTC
// compile of it for one architecture. Links NVRTC only (no driver), so CPU tests compile it too.
#pragma once

#include <string>

namespace pkb::harness {

constexpr const char* kBarrierKernel = "pkb_harness_barrier";
constexpr const char* kDelayKernel = "pkb_harness_delay";
constexpr const char* kReduceKernel = "pkb_harness_reduce";
/// pkb_harness_reduce's codes: element types fp16 0, bf16 1, fp32 2, fp64 3, int8 4, uint8 5,
/// int32 6, int64 7; operations sum 0, prod 1, max 2, min 3, avg 4 (plan::ReduceOp's order).
constexpr int kReduceMaxSources = 8;
constexpr int kHarnessPadWords = 64;  // per rank: 8 slots (one per plan stream) x 8 source ranks

/// The text of harness_kernels.cu.
const std::string& harness_kernels_source();

struct HarnessBinary {
  std::string cubin;
  std::string ptx;
};

/// Compiles the harness kernels for `arch` ("sm_90", "sm_90a", "sm_100a"); throws pkb::Error with
/// NVRTC's log on failure (a pkb bug, never a candidate's).
HarnessBinary compile_harness_kernels(const std::string& arch);

}  // namespace pkb::harness
