// Check macros for the CUDA runtime and NCCL: a failed call throws pkb::Error with the call's text,
// the library's own error string and file:line (docs/STYLE.md, "Errors").
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "src/common/error.h"

#define PKB_CUDA_CHECK(call)                                                                      \
  do {                                                                                            \
    const cudaError_t pkb_cuda_status = (call);                                                   \
    if (pkb_cuda_status != cudaSuccess)                                                           \
      throw ::pkb::Error(std::string(#call) + " failed: " + cudaGetErrorString(pkb_cuda_status) + \
                         " (" + __FILE__ + ":" + std::to_string(__LINE__) + ")");                 \
  } while (0)

#ifdef PKB_HAVE_NCCL

#include <nccl.h>

#define PKB_NCCL_CHECK(call)                                                                      \
  do {                                                                                            \
    const ncclResult_t pkb_nccl_status = (call);                                                  \
    if (pkb_nccl_status != ncclSuccess)                                                           \
      throw ::pkb::Error(std::string(#call) + " failed: " + ncclGetErrorString(pkb_nccl_status) + \
                         " (" + __FILE__ + ":" + std::to_string(__LINE__) + ")");                 \
  } while (0)

#endif  // PKB_HAVE_NCCL
