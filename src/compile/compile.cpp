// compile_cuda: the cache looked up by content hash, else one pkb-nvrtc child with a deadline, and
// the result stored for next time (compile.h).
#include "src/compile/compile.h"

#include <chrono>
#include <memory>

#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/compile/compile_cache.h"
#include "src/compile/compile_key.h"
#include "src/compile/nvrtc_child.h"
#include "src/compile/nvrtc_options.h"
#include "src/compile/source_types.h"
#include "src/compile/work_dir.h"

namespace pkb::compile {
namespace {

namespace fs = std::filesystem;

// The C++ types of pkb-nvrtc's probe and the names in the source, on each PTX parameter; a
// kernel whose type count differs from its PTX (or that the probe missed) keeps them unknown.
void add_source_types(const std::string& source, CompileResult& result) {
  const auto probed = nlohmann::json::parse(result.signatures, nullptr, /*allow_exceptions=*/false);
  for (auto& kernel : result.kernels) {
    const auto names = source_parameter_names(source, kernel.name);
    if (names.size() == kernel.params.size())
      for (std::size_t i = 0; i < names.size(); ++i) kernel.params[i].name = names[i];
    if (!probed.is_object() || !probed.contains("kernels") || !probed["kernels"].contains(kernel.name)) continue;
    const auto& types = probed["kernels"][kernel.name];
    if (!types.is_array() || types.size() != kernel.params.size()) continue;
    for (std::size_t i = 0; i < types.size(); ++i)
      if (types[i].is_string()) kernel.params[i].source_type = types[i].get<std::string>();
  }
}

// Fills in the kernel list; PTX that pkb cannot read is the candidate's failure, not pkb's.
void read_kernels(const std::string& source, CompileResult& result) {
  if (!result.ok) return;
  try {
    result.kernels = parse_ptx_entries(result.ptx);
  } catch (const Error& error) {
    result.ok = false;
    result.log += std::string("\npkb: cannot read the kernel signatures: ") + error.what() + "\n";
    return;
  }
  add_source_types(source, result);
}

// A folder for the child: inside the cache when there is one (so the answer can be renamed into
// place), else a temporary folder.
std::unique_ptr<WorkDir> make_work_dir(const CompileOptions& options, const std::string& key) {
  if (options.cache_dir.empty())
    return std::make_unique<WorkDir>(fs::temp_directory_path(), "pkb-nvrtc-");
  return std::make_unique<WorkDir>(cache_entry_dir(options.cache_dir, key).parent_path(),
                                   ".tmp-" + key.substr(0, 16) + "-");
}

}  // namespace

CompileResult compile_cuda(const std::string& source, const CompileOptions& given) {
  // pkb.cuh never reads PKB_WORLD, so a source that does not name it compiles to the same bytes at
  // every W: leaving the macro out then lets one compile (and one cache entry) serve every W.
  CompileOptions options = given;
  if (source.find("PKB_WORLD") == std::string::npos) options.world = 0;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const IncludeDirs dirs = find_include_dirs(options);
  const std::vector<std::string> nvrtc_list = nvrtc_options(options, dirs);
  const fs::path program = nvrtc_program();
  const std::string version = nvrtc_version(program);
  const std::string key = compile_key(source, nvrtc_options(options, symbolic_include_dirs(dirs)),
                                      version, options.arch, dirs);

  if (!options.cache_dir.empty()) {
    if (auto cached = load_cached(options.cache_dir, key)) {
      cached->cache_hit = true;
      cached->options = nvrtc_list;
      read_kernels(source, *cached);
      cached->seconds = elapsed();
      return *cached;
    }
  }

  const auto work = make_work_dir(options, key);
  const ChildOutcome outcome =
      run_nvrtc_child(program, work->path(), source, nvrtc_list, options.timeout_s);
  CompileResult result;
  result.ok = outcome.ok;
  result.timed_out = outcome.timed_out;
  result.log = outcome.log;
  result.cubin = outcome.cubin;
  result.ptx = outcome.ptx;
  result.signatures = outcome.signatures;
  result.nvrtc_version = version;
  result.key = key;
  result.options = nvrtc_list;
  // Only what NVRTC decided is stored: a timeout or a crash may not happen next time.
  if (!options.cache_dir.empty() && outcome.deterministic)
    store_cached(options.cache_dir, work->path(), result);
  read_kernels(source, result);
  result.seconds = elapsed();
  return result;
}

}  // namespace pkb::compile
