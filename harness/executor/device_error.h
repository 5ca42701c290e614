// DeviceError: a failed call into the GPU driver or a GPU library, with its numeric code. Defined
// apart from cu_check.h so the executor can catch it without including CUDA headers.
#pragma once

#include <string>

#include "src/common/error.h"

namespace pkb::harness {

class DeviceError : public Error {
 public:
  DeviceError(const std::string& message, int code) : Error(message), code_(code) {}
  int code() const { return code_; }  // a CUresult (or a cublasStatus_t for cuBLAS)

 private:
  int code_;
};

}  // namespace pkb::harness
