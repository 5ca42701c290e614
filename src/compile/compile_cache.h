// The on-disk compile cache: CACHE/<key[0:2]>/<key>/{result.json, kernel.cubin, kernel.ptx,
// compile.log}. Entries appear by renaming a finished folder into place, so a reader never sees
// half an entry and two pkb processes compiling the same source at once are fine. An entry whose
// files do not match the digests in its result.json is treated as missing and replaced.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "src/compile/compile.h"

namespace pkb::compile {

/// CACHE/<key[0:2]>/<key>.
std::filesystem::path cache_entry_dir(const std::filesystem::path& cache_dir,
                                      const std::string& key);

/// The stored result (ok, log, cubin, ptx, nvrtc_version, key), or nothing when the entry is
/// missing or damaged. Kernels, options and timings are the caller's.
std::optional<CompileResult> load_cached(const std::filesystem::path& cache_dir,
                                         const std::string& key);

/// Makes `work_dir` (on the cache's file system, holding the child's answer files) the entry for
/// `result.key`. If a valid entry appeared meanwhile it is kept and `work_dir` is left alone.
void store_cached(const std::filesystem::path& cache_dir, const std::filesystem::path& work_dir,
                  const CompileResult& result);

}  // namespace pkb::compile
