// CublasGemm (see cublas_gemm.h). Unverified on a GPU: cuBLAS handles created while a green
// context (emulation) is current.
#include "harness/cuda/cublas_gemm.h"

#include <cstdint>
#include <limits>
#include <string>

#include "harness/cuda/cu_check.h"

namespace pkb::harness {
namespace {

cudaDataType data_type(DType dtype) {
  switch (dtype) {
    case DType::bf16: return CUDA_R_16BF;
    case DType::fp16: return CUDA_R_16F;
    case DType::fp32: return CUDA_R_32F;
    case DType::fp64: return CUDA_R_64F;
    case DType::int8: return CUDA_R_8I;
    case DType::int32: return CUDA_R_32I;
    default:
      throw plan::PlanError("gemm: dtype " + std::string(dtype_name(dtype)) +
                            " is not supported by gemm steps (use bf16, fp16, fp32, fp64 or int8)");
  }
}

cublasComputeType_t compute_type(DType ab, DType c) {
  if (ab == DType::fp64) return CUBLAS_COMPUTE_64F;
  if (ab == DType::int8) {
    if (c != DType::int32) throw plan::PlanError("gemm: int8 inputs need an int32 output");
    return CUBLAS_COMPUTE_32I;
  }
  return CUBLAS_COMPUTE_32F;
}

}  // namespace

CublasGemm::~CublasGemm() {
  for (cublasHandle_t handle : handles_)
    if (handle != nullptr) cublasDestroy(handle);
}

void CublasGemm::prepare(int rank, DevAddr workspace, std::uint64_t bytes) {
  cublasHandle_t& handle = handles_.at(rank);
  if (handle == nullptr) {
    PKB_CUBLAS_CHECK(cublasCreate(&handle));
    PKB_CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  }
  workspaces_.at(rank) = {workspace, bytes};
}

void CublasGemm::run(int rank, CUstream stream, const GemmCall& call) {
  cublasHandle_t& handle = handles_.at(rank);
  if (handle == nullptr) prepare(rank, 0, 0);
  for (const std::int64_t value : {call.m, call.n, call.k, call.lda, call.ldb, call.ldc})
    if (value < 0 || value > std::numeric_limits<int>::max())
      throw plan::PlanError("gemm: m, n, k and leading dimensions must fit in int32, got " +
                            std::to_string(value));
  PKB_CUBLAS_CHECK(cublasSetStream(handle, reinterpret_cast<cudaStream_t>(stream)));
  // cublasSetStream puts cuBLAS's own workspace back, so ours is set again after it.
  const auto [workspace, bytes] = workspaces_[rank];
  if (bytes > 0)
    PKB_CUBLAS_CHECK(cublasSetWorkspace(handle, reinterpret_cast<void*>(workspace), bytes));
  const cudaDataType ab_type = data_type(call.ab_dtype);
  const cudaDataType c_type = data_type(call.c_dtype);
  const cublasComputeType_t compute = compute_type(call.ab_dtype, call.c_dtype);
  // Scalars in the compute type: double for 64F, int for 32I, float otherwise.
  const double alpha64 = call.alpha, beta64 = call.beta;
  const float alpha32 = static_cast<float>(call.alpha), beta32 = static_cast<float>(call.beta);
  const int alpha_i = static_cast<int>(call.alpha), beta_i = static_cast<int>(call.beta);
  const void* alpha = compute == CUBLAS_COMPUTE_64F   ? static_cast<const void*>(&alpha64)
                      : compute == CUBLAS_COMPUTE_32I ? static_cast<const void*>(&alpha_i)
                                                      : static_cast<const void*>(&alpha32);
  const void* beta = compute == CUBLAS_COMPUTE_64F   ? static_cast<const void*>(&beta64)
                     : compute == CUBLAS_COMPUTE_32I ? static_cast<const void*>(&beta_i)
                                                     : static_cast<const void*>(&beta32);
  // Column-major view: C^T[n, m] = op(B)^T[n, k] * op(A)^T[k, m].
  PKB_CUBLAS_CHECK(cublasGemmEx(
      handle, call.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, call.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N,
      static_cast<int>(call.n), static_cast<int>(call.m), static_cast<int>(call.k), alpha,
      reinterpret_cast<const void*>(call.b), ab_type, static_cast<int>(call.ldb),
      reinterpret_cast<const void*>(call.a), ab_type, static_cast<int>(call.lda), beta,
      reinterpret_cast<void*>(call.c), c_type, static_cast<int>(call.ldc), compute,
      CUBLAS_GEMM_DEFAULT));
}

}  // namespace pkb::harness
