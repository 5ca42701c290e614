// Running a child program without a shell: argv in, exit status and captured output back.
// Used where pkb needs another program (python3 to parse a reference; later, compile workers).
#pragma once

#include <string>
#include <vector>

namespace pkb {

struct ProcessResult {
  int exit_code = -1;     // the child's exit status; 128+N when killed by signal N
  bool timed_out = false;  // killed after `timeout_s`
  std::string out;         // stdout
  std::string err;         // stderr
};

/// Runs argv[0] (looked up on PATH) with `input` on its stdin. Throws pkb::Error when the program
/// cannot be started. timeout_s <= 0 waits forever.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input = "",
                          double timeout_s = 0);

/// The first executable called `name` on PATH, or "" (an absolute or relative path is checked as is).
std::string find_program(const std::string& name);

}  // namespace pkb
