// Running the pkb binary from tests: exit code, stdout and stderr captured separately.
#pragma once

#include <string>

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

}  // namespace pkb::test
