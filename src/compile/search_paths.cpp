// Where pkb-nvrtc and the include folders are: an environment variable first (a GPU machine or an
// install may lay things out differently), then beside the running program, then the build and
// source trees this library was configured in (compile definitions from
// src/compile/CMakeLists.txt).
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <system_error>

#include "src/common/error.h"
#include "src/compile/compile.h"

namespace pkb::compile {
namespace {

namespace fs = std::filesystem;

fs::path from_env(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? fs::path(value) : fs::path();
}

fs::path running_program_dir() {
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path() : exe.parent_path();
}

bool is_executable(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && access(path.c_str(), X_OK) == 0;
}

bool holds(const fs::path& dir, const char* relative) {
  std::error_code error;
  return !dir.empty() && fs::exists(dir / relative, error);
}

}  // namespace

fs::path nvrtc_program() {
  if (const fs::path env = from_env("PKB_NVRTC"); !env.empty()) {
    if (!is_executable(env))
      throw Error("$PKB_NVRTC: " + env.string() + ": not an executable file");
    return env;
  }
  if (const fs::path dir = running_program_dir(); !dir.empty() && is_executable(dir / "pkb-nvrtc"))
    return dir / "pkb-nvrtc";
  const fs::path built = PKB_NVRTC_BUILD_PATH;
  if (is_executable(built)) return built;
  throw Error("pkb-nvrtc: not found beside the running program nor at " + built.string() +
              ": build the pkb-nvrtc target or set PKB_NVRTC");
}

fs::path device_include_dir() {
  if (const fs::path env = from_env("PKB_INCLUDE"); !env.empty()) return env;
  if (const fs::path dir = running_program_dir(); holds(dir, "../harness/include/pkb/pkb.cuh"))
    return (dir / "../harness/include").lexically_normal();
  return PKB_HARNESS_INCLUDE_DIR;
}

fs::path cuda_include_dir() {
  if (const fs::path env = from_env("PKB_CUDA_INCLUDE"); !env.empty()) return env;
  if (holds(PKB_CUDA_INCLUDE_DIR, "cuda_fp16.h")) return PKB_CUDA_INCLUDE_DIR;
  if (const fs::path home = from_env("CUDA_HOME"); holds(home, "include/cuda_fp16.h"))
    return home / "include";
  if (holds("/usr/local/cuda/include", "cuda_fp16.h")) return "/usr/local/cuda/include";
  throw Error(std::string("cuda include directory: no cuda_fp16.h in ") + PKB_CUDA_INCLUDE_DIR +
              ", $CUDA_HOME/include or /usr/local/cuda/include: set PKB_CUDA_INCLUDE");
}

fs::path nvrtc_shim_dir() {
  if (const fs::path env = from_env("PKB_NVRTC_SHIMS"); !env.empty()) return env;
  return PKB_NVRTC_SHIM_DIR;
}

}  // namespace pkb::compile
