// NVRTC compilation of a candidate's source, in a child process with a deadline (a pathological
// source must not hang pkb), with results cached on disk by content hash. The child is the
// `pkb-nvrtc` program built beside pkb; see nvrtc_main.cpp.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace pkb::compile {

struct CompileOptions {
  std::string arch = "sm_90a";                   // --gpu-architecture; sm_XX[a|f]
  int world = 0;  // -DPKB_WORLD=W when > 0 and the source names PKB_WORLD (else it cannot matter)
  bool multicast = false;                        // -DPKB_HAS_MULTICAST=0|1
  long long spin_timeout_ns = 10'000'000'000LL;  // -DPKB_SPIN_TIMEOUT_NS
  std::string dtype;                             // -DPKB_DTYPE=PKB_DTYPE_<DTYPE> ("bf16"...); "" none
  std::vector<std::string> extra_options;        // appended as given (e.g. -DNAME=1)
  double timeout_s = 120;                        // the child is killed after this
  std::filesystem::path cache_dir;               // empty: no cache
  std::filesystem::path include_dir;             // holds pkb/pkb.cuh; empty: device_include_dir()
};

/// One parameter of a kernel, as the PTX declares it.
struct KernelParam {
  std::size_t size = 0;     // bytes
  std::size_t align = 0;    // bytes
  std::string ptx_type;     // ".u64", ".b8[64]", ...
  std::string source_type;  // the C++ type, typedefs resolved ("float const*"); "" when unknown
  std::string name;         // as the source spells it, for messages; "" when unknown
};

struct KernelSignature {
  std::string name;
  std::vector<KernelParam> params;
};

struct CompileResult {
  bool ok = false;
  bool timed_out = false;  // the deadline killed the child
  std::string log;         // NVRTC's log (with ptxas -v lines), or why the child failed
  std::string cubin;       // bytes; empty unless ok
  std::string ptx;         // text; empty unless ok
  std::string signatures;  // pkb-nvrtc's signatures.json (C++ parameter types); empty unless ok
  std::vector<KernelSignature> kernels;  // the .entry points of the PTX, in PTX order
  double seconds = 0;                    // wall time of this call
  bool cache_hit = false;
  std::string nvrtc_version;         // "13.0"
  std::string key;                   // hex SHA-256 of everything that decides the output
  std::vector<std::string> options;  // the NVRTC options used
};

/// Compiles `source`. A compile error, a crash of the child or the deadline is a result with
/// ok == false, never an exception; a pkb-side failure (no pkb-nvrtc found, cache not writable)
/// throws pkb::Error.
CompileResult compile_cuda(const std::string& source, const CompileOptions& options);

/// The .entry declarations of a PTX text: names and parameter sizes.
std::vector<KernelSignature> parse_ptx_entries(const std::string& ptx);

/// Where pkb-nvrtc is: $PKB_NVRTC, else beside the running executable, else the build tree's.
std::filesystem::path nvrtc_program();

/// The directory holding pkb/pkb.cuh (harness/include): $PKB_INCLUDE, else <exe
/// dir>/../harness/include, else the source tree's.
std::filesystem::path device_include_dir();

/// The CUDA toolkit's include directory (cuda_fp16.h ...): $PKB_CUDA_INCLUDE, else the one pkb was
/// built against, else $CUDA_HOME/include, else /usr/local/cuda/include.
std::filesystem::path cuda_include_dir();

/// The stand-ins for the C/C++ headers NVRTC lacks (stdint.h, cstddef, ...): $PKB_NVRTC_SHIMS, else
/// the source tree's src/compile/nvrtc_shims.
std::filesystem::path nvrtc_shim_dir();

}  // namespace pkb::compile
