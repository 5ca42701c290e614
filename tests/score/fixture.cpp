// Fixture helpers (fixture.h).
#include "tests/score/fixture.h"

#include <fstream>
#include <random>
#include <sstream>

namespace pkb::test {
namespace fs = std::filesystem;

fs::path fixture_dir(const std::string& name) {
  return fs::path(PKB_SOURCE_DIR) / "tests" / "score" / "data" / name;
}

fs::path copy_fixture(const std::string& name) {
  std::random_device random;
  const fs::path root = fs::temp_directory_path() / ("pkb_score_" + std::to_string(random()));
  const fs::path copy = root / fs::path(name).filename();
  fs::create_directories(copy);
  fs::copy(fixture_dir(name), copy, fs::copy_options::recursive);
  return copy;
}

fs::path copy_tree_with_turns() {
  const fs::path root = copy_fixture("tree");
  fs::copy(fixture_dir("turns"), root / "h200" / "model-turns", fs::copy_options::recursive);
  return root;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

}  // namespace pkb::test
