// Cache keys (see compile_key.h). Every field is written with its length in front, so no two
// different inputs serialise to the same bytes.
#include "src/compile/compile_key.h"

#include <algorithm>
#include <filesystem>

#include "src/common/error.h"
#include "src/common/file_bytes.h"
#include "src/common/sha256.h"

namespace pkb::compile {
namespace {

namespace fs = std::filesystem;

// Bumped when the cache entry layout or the meaning of a field changes.
// v2: entries hold signatures.json; v3: logs lost the NUL bytes NVRTC ended them with.
constexpr const char* kKeyVersion = "pkb-compile-key-v3";

void add_field(std::string& out, const std::string& tag, const std::string& value) {
  out += tag + ' ' + std::to_string(value.size()) + ':' + value + '\n';
}

std::string read_bytes(const fs::path& path) {
  auto bytes = read_file(path);
  if (!bytes) throw Error(path.string() + ": cannot read");
  return *bytes;
}

// Every regular file under `dir`, sorted by relative path so the order never depends on the
// file system. Editing pkb.cuh or a shim therefore changes every key.
void add_folder(std::string& out, const std::string& tag, const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    add_field(out, tag + "-path", file.lexically_relative(dir).generic_string());
    add_field(out, tag + "-bytes", read_bytes(file));
  }
}

}  // namespace

std::string compile_key(const std::string& source, const std::vector<std::string>& symbolic_options,
                        const std::string& nvrtc_version, const std::string& arch,
                        const IncludeDirs& dirs) {
  std::string material = std::string(kKeyVersion) + '\n';
  add_field(material, "source", source);
  for (const std::string& option : symbolic_options) add_field(material, "option", option);
  add_field(material, "nvrtc", nvrtc_version);
  add_field(material, "arch", arch);
  add_folder(material, "pkb-include", dirs.pkb);
  add_folder(material, "shim", dirs.shims);
  return sha256_hex(material);
}

}  // namespace pkb::compile
