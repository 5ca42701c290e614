// NVRTC compile of the harness kernels (see harness_kernels.h).
#include "harness/cuda/harness_kernels.h"

#include <nvrtc.h>

#include <memory>
#include <vector>

#include "src/common/error.h"

namespace pkb::harness {
namespace {

void check_nvrtc(nvrtcResult result, const char* call, const std::string& log = "") {
  if (result != NVRTC_SUCCESS)
    throw Error(std::string("harness kernels: ") + call +
                " failed: " + nvrtcGetErrorString(result) + (log.empty() ? "" : "\n" + log));
}

}  // namespace

const std::string& harness_kernels_source() {
  static const std::string source =
#include "harness/cuda/harness_kernels_source.inc"
      ;
  return source;
}

HarnessBinary compile_harness_kernels(const std::string& arch) {
  nvrtcProgram program = nullptr;
  check_nvrtc(nvrtcCreateProgram(&program, harness_kernels_source().c_str(), "harness_kernels.cu",
                                 0, nullptr, nullptr),
              "nvrtcCreateProgram");
  std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram*)> guard(
      &program, [](nvrtcProgram* p) { nvrtcDestroyProgram(p); });
  const std::string arch_option = "--gpu-architecture=" + arch;
  const std::vector<const char*> options = {arch_option.c_str(), "-std=c++17"};
  const nvrtcResult compiled =
      nvrtcCompileProgram(program, static_cast<int>(options.size()), options.data());
  std::size_t log_size = 0;
  nvrtcGetProgramLogSize(program, &log_size);
  std::string log(log_size, '\0');
  if (log_size > 0) nvrtcGetProgramLog(program, log.data());
  check_nvrtc(compiled, "nvrtcCompileProgram", log);

  HarnessBinary binary;
  std::size_t size = 0;
  check_nvrtc(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
  binary.cubin.resize(size);
  check_nvrtc(nvrtcGetCUBIN(program, binary.cubin.data()), "nvrtcGetCUBIN");
  check_nvrtc(nvrtcGetPTXSize(program, &size), "nvrtcGetPTXSize");
  binary.ptx.resize(size);
  check_nvrtc(nvrtcGetPTX(program, binary.ptx.data()), "nvrtcGetPTX");
  return binary;
}

}  // namespace pkb::harness
