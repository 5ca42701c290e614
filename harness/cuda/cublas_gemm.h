// Plan gemm steps on cuBLAS (cublasGemmEx), one handle per rank. Row-major C = alpha*op(A)*op(B)
// + beta*C is issued as the column-major C^T = op(B)^T * op(A)^T, i.e. with A and B swapped.
// Accumulation is fp32 (fp64 for fp64 inputs) and TF32 stays off (the default math mode with
// CUBLAS_COMPUTE_32F), matching the references' full-fp32 rule.
#pragma once

#include <cublas_v2.h>
#include <cuda.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "harness/device/device.h"

namespace pkb::harness {

class CublasGemm {
 public:
  explicit CublasGemm(int world) : handles_(world, nullptr), workspaces_(world, {0, 0}) {}
  ~CublasGemm();
  CublasGemm(const CublasGemm&) = delete;
  CublasGemm& operator=(const CublasGemm&) = delete;

  /// Creates the rank's handle (its context must be current) with `bytes` of workspace at
  /// `workspace`, so no later call allocates: an allocation in the middle of a call can wait for
  /// a kernel that spins on a peer not yet launched.
  void prepare(int rank, DevAddr workspace, std::uint64_t bytes);

  /// Issues `call` on `stream`; the rank's context must be current (a handle not prepared is
  /// created here, with cuBLAS's own workspace). Throws plan::PlanError for dtypes cuBLAS cannot
  /// take here (fp8, integers other than int8 -> int32), CudaError for a failed call.
  void run(int rank, CUstream stream, const GemmCall& call);

 private:
  std::vector<cublasHandle_t> handles_;
  std::vector<std::pair<DevAddr, std::uint64_t>> workspaces_;
};

}  // namespace pkb::harness
