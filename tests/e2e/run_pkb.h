// Running the pkb binary from tests: exit code, stdout and stderr captured separately.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pkb::test {

struct PkbRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs `pkb ARGS` (ARGS is a shell-quoted string) with the source tree's problems folder.
PkbRun run_pkb(const std::string& args);

/// A fresh empty folder under the system temp dir.
std::string make_temp_dir(const std::string& tag);

/// Every non-empty line of a JSON-lines file (samples.jsonl, generate.jsonl), parsed.
std::vector<nlohmann::json> read_records(const std::string& path);

}  // namespace pkb::test
