// What pkb and pkb-torch share around their subcommand tables: the global flags, parsing, the
// "unknown command, did you mean" message, and the mapping from errors to exit codes (0 success,
// 1 the work failed, 2 bad usage or input; docs/STYLE.md, "Errors").
#pragma once

#include <string>
#include <vector>

#include "src/cli/command.h"

namespace pkb::cli {

/// The help lines of the commands pkb-torch runs, listed by both programs' --help.
namespace help {
inline constexpr const char* kReference =
    "Run the libtorch reference on W simulated ranks; --dump writes safetensors";
inline constexpr const char* kEval =
    "Compile, check and time one solution (a model's answer, or a .cu file with --plan)";
inline constexpr const char* kRun =
    "Generate, compile and evaluate: the whole benchmark into a results directory";
inline constexpr const char* kEvaluate = "Evaluate the answers in a results directory written by pkb generate";
inline constexpr const char* kValidate =
    "Prove a problem's check passes reordered sums and fails broken collectives";
inline constexpr const char* kDoctor =
    "What this machine offers: GPUs, peer access, NVLink, multicast, library versions";
}  // namespace help

struct CommandEntry {
  const char* name;
  const char* help;
  CommandSetup setup;  // empty: pkb-torch runs this command (pkb hands it over, command_line.h)
};

/// The command word of argv: the first argument that is neither a global flag nor its value; ""
/// when there is none (pkb --help).
std::string command_word(int argc, char** argv);

/// Parses argv against `commands` (every entry listed in --help) and runs the chosen command.
/// `before_run` runs after parsing and logging set-up (pkb-torch limits ATen's threads there).
int run_command_line(int argc, char** argv, const std::vector<CommandEntry>& commands,
                     const std::function<void()>& before_run = {});

/// Replaces this process by pkb-torch (beside this executable, or $PKB_TORCH) with the same
/// arguments. Returns only when that fails, with the exit code after printing why.
int exec_pkb_torch(int argc, char** argv, const std::string& command);

}  // namespace pkb::cli
