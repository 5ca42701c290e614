// NVRTC options for a candidate (see nvrtc_options.h).
#include "src/compile/nvrtc_options.h"

#include <cctype>
#include <system_error>

#include "src/common/error.h"

namespace pkb::compile {

namespace fs = std::filesystem;

IncludeDirs find_include_dirs(const CompileOptions& options) {
  IncludeDirs dirs;
  dirs.pkb = options.include_dir.empty() ? device_include_dir() : options.include_dir;
  dirs.cuda = cuda_include_dir();
  dirs.shims = nvrtc_shim_dir();
  std::error_code error;
  if (!fs::is_regular_file(dirs.pkb / "pkb/pkb.cuh", error))
    throw Error((dirs.pkb / "pkb/pkb.cuh").string() +
                ": not found: the device header is needed by every candidate (set PKB_INCLUDE)");
  if (!fs::is_regular_file(dirs.shims / "stdint.h", error))
    throw Error((dirs.shims / "stdint.h").string() +
                ": not found: the nvrtc header shims are missing (set PKB_NVRTC_SHIMS)");
  dirs.cuda_has_cccl = fs::is_directory(dirs.cuda / "cccl", error);
  return dirs;
}

IncludeDirs symbolic_include_dirs(const IncludeDirs& dirs) {
  return {"<pkb-include>", "<cuda-include>", dirs.cuda_has_cccl, "<nvrtc-shims>"};
}

void check_arch(const std::string& arch) {
  std::size_t at = 3;
  bool valid = arch.rfind("sm_", 0) == 0 && arch.size() > at;
  while (valid && at < arch.size() && std::isdigit(static_cast<unsigned char>(arch[at]))) ++at;
  valid = valid && at > 3 &&
          (at == arch.size() || (at + 1 == arch.size() && (arch[at] == 'a' || arch[at] == 'f')));
  if (!valid)
    throw UsageError("arch '" + arch + "': expected sm_NN, sm_NNa or sm_NNf (for example sm_90a)");
}

std::vector<std::string> nvrtc_options(const CompileOptions& options, const IncludeDirs& dirs) {
  check_arch(options.arch);
  std::vector<std::string> list = {
      "--gpu-architecture=" + options.arch,
      "-std=c++17",
      "-default-device",  // unannotated functions are device code (CuTe, CUTLASS need it)
      "-lineinfo",
      "--ptxas-options=-v",  // registers and spills in the log: feedback for the model
      "-I" + dirs.pkb.string(),
      "-I" + dirs.cuda.string(),
  };
  if (dirs.cuda_has_cccl) list.push_back("-I" + (dirs.cuda / "cccl").string());
  list.push_back("-I" + dirs.shims.string());
  list.push_back("--pre-include=pkb/pkb.cuh");
  if (options.world > 0) list.push_back("-DPKB_WORLD=" + std::to_string(options.world));
  list.push_back(std::string("-DPKB_HAS_MULTICAST=") + (options.multicast ? "1" : "0"));
  list.push_back("-DPKB_SPIN_TIMEOUT_NS=" + std::to_string(options.spin_timeout_ns));
  if (!options.dtype.empty()) {
    std::string upper = options.dtype;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    list.push_back("-DPKB_DTYPE=PKB_DTYPE_" + upper);
  }
  list.insert(list.end(), options.extra_options.begin(), options.extra_options.end());
  return list;
}

}  // namespace pkb::compile
