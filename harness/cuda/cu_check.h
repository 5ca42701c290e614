// Check macros for the CUDA driver API and cuBLAS: a failed call throws CudaError with the call's
// text, the library's error name and string, and file:line (docs/STYLE.md, "Errors"). The error keeps the
// CUresult, so the executor can tell a sticky device error (the process must end) from a call
// the candidate's plan made fail (an impossible launch configuration).
#pragma once

#include <cublas_v2.h>
#include <cuda.h>

#include <string>

#include "harness/executor/device_error.h"

namespace pkb::harness {

/// The driver API's and cuBLAS's failures (device_error.h).
using CudaError = DeviceError;

/// "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered".
std::string cu_error_text(CUresult result);

[[noreturn]] void throw_cu_error(CUresult result, const char* call, const char* file, int line);
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* call, const char* file,
                                     int line);

}  // namespace pkb::harness

#define PKB_CU_CHECK(call)                                                      \
  do {                                                                          \
    const CUresult pkb_cu_status = (call);                                      \
    if (pkb_cu_status != CUDA_SUCCESS)                                          \
      ::pkb::harness::throw_cu_error(pkb_cu_status, #call, __FILE__, __LINE__); \
  } while (0)

#define PKB_CUBLAS_CHECK(call)                                                          \
  do {                                                                                  \
    const cublasStatus_t pkb_cublas_status = (call);                                    \
    if (pkb_cublas_status != CUBLAS_STATUS_SUCCESS)                                     \
      ::pkb::harness::throw_cublas_error(pkb_cublas_status, #call, __FILE__, __LINE__); \
  } while (0)
