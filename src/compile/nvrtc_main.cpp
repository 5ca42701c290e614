// pkb-nvrtc: compiles one candidate with NVRTC, in a process of its own so that pkb can kill it at
// a deadline, and so that NVRTC's process-wide setrlimit and any crash stay out of pkb.
//   pkb-nvrtc --version   prints "MAJOR.MINOR" of the NVRTC it links
//   pkb-nvrtc FOLDER      compiles FOLDER/source.cu as nvrtc_protocol.h describes
#include <cxxabi.h>
#include <nvrtc.h>
#include <sys/resource.h>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <new>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/common/file_bytes.h"
#include "src/compile/compile.h"
#include "src/compile/nvrtc_protocol.h"
#include "src/compile/source_types.h"

namespace {

using pkb::compile::kProgramName;

// A compile that needs more than this is broken or hostile; the heaviest known candidate (a
// CUTLASS 3.x GEMM) stays well under 2 GiB.
constexpr rlim_t kAddressSpaceBytes = 8ull << 30;

// A second fence behind pkb's wall-clock deadline, in CPU seconds: the deadline plus a margin, so
// it only fires when pkb failed to kill the child.
rlim_t cpu_limit_s(double timeout_s) { return static_cast<rlim_t>(std::ceil(timeout_s * 1.5)) + 5; }

struct BadRequest : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string read_request_file(const std::string& path) {
  auto bytes = pkb::read_file(path);
  if (!bytes) throw BadRequest(path + ": cannot read");
  return *bytes;
}

void set_limits(double timeout_s) {
  const rlimit memory{kAddressSpaceBytes, kAddressSpaceBytes};
  setrlimit(RLIMIT_AS, &memory);
  if (timeout_s > 0) {
    const rlimit cpu{cpu_limit_s(timeout_s), cpu_limit_s(timeout_s) + 5};
    setrlimit(RLIMIT_CPU, &cpu);
  }
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

// Reads one of NVRTC's outputs; `get_size` and `get` are the nvrtcGet*Size / nvrtcGet* pair.
template <class GetSize, class Get>
std::string program_output(nvrtcProgram program, GetSize get_size, Get get) {
  std::size_t size = 0;
  if (get_size(program, &size) != NVRTC_SUCCESS || size == 0) return "";
  std::string bytes(size, '\0');
  if (get(program, bytes.data()) != NVRTC_SUCCESS) return "";
  return bytes;
}

std::string demangle(const char* name) {
  int status = 0;
  char* text = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || text == nullptr) return "";
  std::string out = text;
  std::free(text);
  return out;
}

// A second, syntax-only pass over the source with a probe per kernel: the lowered (mangled) names
// of the probes spell each kernel's parameter types. A probe that fails leaves the types unknown,
// and the plan check then relies on the PTX sizes alone; it never fails the compile.
nlohmann::json probe_signatures(const std::string& source, const std::vector<const char*>& argv,
                                const std::string& ptx) {
  nlohmann::json kernels = nlohmann::json::object();
  std::vector<std::string> names;
  try {
    for (const auto& kernel : pkb::compile::parse_ptx_entries(ptx))
      if (kernel.name.rfind("_Z", 0) != 0) names.push_back(kernel.name);  // extern "C" only
  } catch (const std::exception& error) {
    return {{"kernels", kernels}, {"error", std::string("ptx: ") + error.what()}};
  }
  if (names.empty()) return {{"kernels", kernels}};
  const std::string probe_source = source + pkb::compile::kSignatureProbeSource;
  nvrtcProgram program = nullptr;
  if (nvrtcCreateProgram(&program, probe_source.c_str(), kProgramName, 0, nullptr, nullptr) != NVRTC_SUCCESS)
    return {{"kernels", kernels}, {"error", "nvrtcCreateProgram failed"}};
  for (const auto& name : names)
    nvrtcAddNameExpression(program, pkb::compile::signature_probe_expression(name).c_str());
  std::vector<const char*> options = argv;
  options.push_back("-fdevice-syntax-only");
  const nvrtcResult result = nvrtcCompileProgram(program, static_cast<int>(options.size()), options.data());
  std::string error;
  if (result != NVRTC_SUCCESS) error = std::string("probe: ") + nvrtcGetErrorString(result);
  for (const auto& name : names) {
    const char* lowered = nullptr;
    if (result != NVRTC_SUCCESS ||
        nvrtcGetLoweredName(program, pkb::compile::signature_probe_expression(name).c_str(), &lowered) !=
            NVRTC_SUCCESS ||
        lowered == nullptr)
      continue;
    const std::string demangled = demangle(lowered);
    const auto types = pkb::compile::probe_parameter_types(demangled);
    if (!types.empty() || demangled.find("<void ()>") != std::string::npos) kernels[name] = types;
  }
  nvrtcDestroyProgram(&program);
  nlohmann::json answer = {{"kernels", kernels}};
  if (!error.empty()) answer["error"] = error;
  return answer;
}

int compile(const std::string& folder) {
  const auto request = nlohmann::json::parse(read_request_file(folder + "/" + pkb::compile::kRequestFile));
  const std::string source = read_request_file(folder + "/" + pkb::compile::kSourceFile);
  const auto options = request.at("options").get<std::vector<std::string>>();
  set_limits(request.at("timeout_s").get<double>());

  nvrtcProgram program = nullptr;
  nvrtcResult result =
      nvrtcCreateProgram(&program, source.c_str(), kProgramName, 0, nullptr, nullptr);
  if (result != NVRTC_SUCCESS)
    throw BadRequest(std::string("nvrtcCreateProgram: ") + nvrtcGetErrorString(result));
  std::vector<const char*> argv;
  for (const std::string& option : options) argv.push_back(option.c_str());
  result = nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());

  std::string log = program_output(program, nvrtcGetProgramLogSize, nvrtcGetProgramLog);
  // The size counts the terminator, and with -Xptxas -v the ptxas part brings its own.
  while (!log.empty() && log.back() == '\0') log.pop_back();
  std::string cubin, ptx;
  if (result == NVRTC_SUCCESS) {
    cubin = program_output(program, nvrtcGetCUBINSize, nvrtcGetCUBIN);
    ptx = program_output(program, nvrtcGetPTXSize, nvrtcGetPTX);
    if (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();  // the size counts the terminator
  }
  nvrtcDestroyProgram(&program);
  const nlohmann::json signatures =
      result == NVRTC_SUCCESS ? probe_signatures(source, argv, ptx) : nlohmann::json::object();
  const bool ok = result == NVRTC_SUCCESS && !cubin.empty();
  if (result == NVRTC_SUCCESS && cubin.empty()) log += "\nnvrtc: no cubin produced for this arch\n";
  if (result != NVRTC_SUCCESS && log.find("error") == std::string::npos)
    log += std::string("\nnvrtc: ") + nvrtcGetErrorString(result) + "\n";

  pkb::write_file(folder + "/" + pkb::compile::kCubinFile, cubin);
  pkb::write_file(folder + "/" + pkb::compile::kPtxFile, ptx);
  pkb::write_file(folder + "/" + pkb::compile::kLogFile, log);
  pkb::write_file(folder + "/" + pkb::compile::kSignaturesFile, signatures.dump(2) + "\n");
  const nlohmann::json answer = {{"ok", ok},
                                 {"nvrtc_result", nvrtcGetErrorString(result)},
                                 {"nvrtc_version", nvrtc_version()}};
  pkb::write_file(folder + "/" + pkb::compile::kResultFile, answer.dump(2) + "\n");
  return ok ? pkb::compile::kExitOk : pkb::compile::kExitCompileError;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--version") {
    std::printf("%s\n", nvrtc_version().c_str());
    return pkb::compile::kExitOk;
  }
  if (argc != 2 || argv[1][0] == '-') {
    std::fprintf(stderr, "usage: pkb-nvrtc FOLDER | --version\n");
    return pkb::compile::kExitBadRequest;
  }
  try {
    return compile(argv[1]);
  } catch (const std::bad_alloc&) {  // the candidate made NVRTC or us exceed kAddressSpaceBytes
    std::fprintf(stderr, "pkb-nvrtc: out of memory (address space limit %llu GiB)\n",
                 static_cast<unsigned long long>(kAddressSpaceBytes >> 30));
    return pkb::compile::kExitCompileError;
  } catch (const std::exception& error) {  // BadRequest, or a malformed request.json
    std::fprintf(stderr, "pkb-nvrtc: %s: %s\n", argv[1], error.what());
    return pkb::compile::kExitBadRequest;
  }
}
