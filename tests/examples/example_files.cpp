// See example_files.h.
#include "tests/examples/example_files.h"

#include <algorithm>

#include "src/common/file_bytes.h"

namespace pkb::examples_test {

namespace fs = std::filesystem;

fs::path include_dir() { return fs::path(PKB_SOURCE_DIR) / "harness/include"; }

std::vector<fs::path> example_files() {
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry :
       fs::directory_iterator(fs::path(PKB_SOURCE_DIR) / "problems/examples"))
    if (entry.path().extension() == ".md") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string read_text(const fs::path& path) { return read_file(path).value_or(""); }

compile::CompileOptions compile_options(const std::string& arch, bool multicast, int world) {
  compile::CompileOptions options;
  options.arch = arch;
  options.multicast = multicast;
  options.world = world;
  options.include_dir = include_dir();
  options.timeout_s = 60;
  return options;
}

}  // namespace pkb::examples_test
