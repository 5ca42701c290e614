// run_pkb: std::system with stdout and stderr redirected to temporary files.
#include "tests/e2e/run_pkb.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace pkb::test {
namespace {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string make_temp_dir(const std::string& tag) {
  std::random_device random;
  const auto dir = std::filesystem::temp_directory_path() / ("pkb_" + tag + "_" + std::to_string(random()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

PkbRun run_pkb(const std::string& args) {
  const std::filesystem::path dir = make_temp_dir("run");
  const std::string command = std::string("NO_COLOR=1 '") + PKB_BINARY + "' --problems-dir '" + PKB_SOURCE_DIR +
                              "/problems' " + args + " >'" + (dir / "out").string() + "' 2>'" +
                              (dir / "err").string() + "'";
  const int status = std::system(command.c_str());
  PkbRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = slurp(dir / "out");
  run.err = slurp(dir / "err");
  std::filesystem::remove_all(dir);
  return run;
}

std::vector<nlohmann::json> read_records(const std::string& path) {
  std::vector<nlohmann::json> records;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) records.push_back(nlohmann::json::parse(line));
  return records;
}

}  // namespace pkb::test
