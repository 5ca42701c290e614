// The NVRTC option list of a compile: a fixed policy plus the run's
// macros. The same function, fed symbolic folders, gives the machine-independent list in the cache
// key.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "src/compile/compile.h"

namespace pkb::compile {

/// The folders NVRTC searches, in this order.
struct IncludeDirs {
  std::filesystem::path pkb;    // holds pkb/pkb.cuh
  std::filesystem::path cuda;   // the toolkit's include/
  bool cuda_has_cccl = false;   // CUDA 13 moved cuda/std, cuda/atomic ... to include/cccl
  std::filesystem::path shims;  // stdint.h, cstddef, ... (NVRTC ships none)
};

/// The folders for `options` (include_dir, else device_include_dir(); cuda_include_dir();
/// nvrtc_shim_dir()). Throws pkb::Error when pkb/pkb.cuh or the shims are missing.
IncludeDirs find_include_dirs(const CompileOptions& options);

/// The same folders under fixed names ("<pkb-include>", ...), for the cache key: the files in them
/// are hashed by content, so where they sit must not change the key.
IncludeDirs symbolic_include_dirs(const IncludeDirs& dirs);

/// Throws pkb::UsageError unless `arch` is sm_NN, sm_NNa or sm_NNf (compute_NN gives no cubin).
void check_arch(const std::string& arch);

/// The full option list, extra_options last.
std::vector<std::string> nvrtc_options(const CompileOptions& options, const IncludeDirs& dirs);

}  // namespace pkb::compile
