// Error text for the driver API and cuBLAS (see cu_check.h).
#include "harness/cuda/cu_check.h"

#include "harness/cuda/sticky_errors.h"

namespace pkb::harness {

std::string cu_error_text(CUresult result) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS) name = nullptr;
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS) text = nullptr;
  return std::string(name ? name : "CUDA_ERROR_" + std::to_string(static_cast<int>(result))) +
         ": " + (text ? text : "unknown error");
}

void throw_cu_error(CUresult result, const char* call, const char* file, int line) {
  throw CudaError(std::string(call) + " failed: " + cu_error_text(result) + " (" + file + ":" +
                      std::to_string(line) + ")" +
                      (is_sticky_error(static_cast<int>(result)) ? " (a sticky error: the context is lost)" : ""),
                  static_cast<int>(result));
}

void throw_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  throw CudaError(std::string(call) + " failed: " + cublasGetStatusName(status) + ": " +
                      cublasGetStatusString(status) + " (" + file + ":" + std::to_string(line) +
                      ")",
                  static_cast<int>(status));
}

}  // namespace pkb::harness
