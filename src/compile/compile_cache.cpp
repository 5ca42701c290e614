// The compile cache (see compile_cache.h).
#include "src/compile/compile_cache.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "src/common/error.h"
#include "src/common/file_bytes.h"
#include "src/common/sha256.h"
#include "src/compile/nvrtc_protocol.h"
#include "src/compile/work_dir.h"

namespace pkb::compile {
namespace {

namespace fs = std::filesystem;

constexpr int kSchemaVersion = 2;  // 2: signatures.json

// Reads a file of an entry; nothing when it is missing (a damaged entry is not an error).
std::optional<CompileResult> parse_entry(const fs::path& entry, const std::string& key) {
  const auto text = read_file(entry / kResultFile);
  const auto cubin = read_file(entry / kCubinFile);
  const auto ptx = read_file(entry / kPtxFile);
  const auto log = read_file(entry / kLogFile);
  const auto signatures = read_file(entry / kSignaturesFile);
  if (!text || !cubin || !ptx || !log || !signatures) return std::nullopt;
  const auto stored = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!stored.is_object() || stored.value("schema_version", 0) != kSchemaVersion ||
      stored.value("key", "") != key || stored.value("cubin_sha256", "") != sha256_hex(*cubin) ||
      stored.value("ptx_sha256", "") != sha256_hex(*ptx) ||
      stored.value("log_sha256", "") != sha256_hex(*log) ||
      stored.value("signatures_sha256", "") != sha256_hex(*signatures))
    return std::nullopt;
  CompileResult result;
  result.ok = stored.value("ok", false);
  if (result.ok && cubin->empty()) return std::nullopt;
  result.log = *log;
  result.cubin = *cubin;
  result.ptx = *ptx;
  result.signatures = result.ok ? *signatures : "";
  result.nvrtc_version = stored.value("nvrtc_version", "");
  result.key = key;
  return result;
}

}  // namespace

fs::path cache_entry_dir(const fs::path& cache_dir, const std::string& key) {
  PKB_ASSERT(key.size() > 2, "cache key too short");
  return cache_dir / key.substr(0, 2) / key;
}

std::optional<CompileResult> load_cached(const fs::path& cache_dir, const std::string& key) {
  return parse_entry(cache_entry_dir(cache_dir, key), key);
}

void store_cached(const fs::path& cache_dir, const fs::path& work_dir,
                  const CompileResult& result) {
  // The child's answer files become the entry; the request and source are not kept.
  std::error_code ignored;
  fs::remove(work_dir / kSourceFile, ignored);
  fs::remove(work_dir / kRequestFile, ignored);
  const nlohmann::json stored = {{"schema_version", kSchemaVersion},
                                 {"key", result.key},
                                 {"ok", result.ok},
                                 {"nvrtc_version", result.nvrtc_version},
                                 {"options", result.options},
                                 {"cubin_sha256", sha256_hex(result.cubin)},
                                 {"ptx_sha256", sha256_hex(result.ptx)},
                                 {"log_sha256", sha256_hex(result.log)},
                                 {"signatures_sha256", sha256_hex(read_file(work_dir / kSignaturesFile).value_or(""))}};
  write_file(work_dir / kResultFile, stored.dump(2) + "\n");

  const fs::path entry = cache_entry_dir(cache_dir, result.key);
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (std::rename(work_dir.c_str(), entry.c_str()) == 0) return;
    if (errno != EEXIST && errno != ENOTEMPTY)
      throw Error(entry.string() + ": cannot store cache entry: " + std::strerror(errno));
    if (parse_entry(entry, result.key)) return;  // another process stored it first
    // A damaged entry: rename it over an empty folder of our own (rename may replace an empty
    // folder), which moves it out of the way atomically, then delete it.
    const WorkDir trash(entry.parent_path(), ".trash-");
    if (std::rename(entry.c_str(), trash.path().c_str()) != 0 && errno != ENOENT)
      throw Error(entry.string() + ": cannot replace damaged cache entry: " + std::strerror(errno));
  }
  throw Error(entry.string() + ": cannot store cache entry: it keeps reappearing damaged");
}

}  // namespace pkb::compile
