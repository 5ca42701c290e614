// The PTX NVRTC makes of a test's CUDA source for sm_90a, as pkb compiles a candidate: the tests
// that run real compiler output through the interpreter (tests/ptx/*_nvrtc_test.cpp).
#pragma once

#include <stdexcept>
#include <string>

#include "src/compile/compile.h"

namespace pkb::ptx_test {

/// Compiles `source`; throws with NVRTC's log, naming `what`, when it does not compile.
inline std::string nvrtc_ptx(const std::string& source, const std::string& what) {
  compile::CompileOptions options;
  options.arch = "sm_90a";
  const compile::CompileResult result = compile::compile_cuda(source, options);
  if (!result.ok) throw std::runtime_error(what + " do not compile:\n" + result.log);
  return result.ptx;
}

}  // namespace pkb::ptx_test
