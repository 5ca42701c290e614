// run_command_line and the hand-over to pkb-torch (see command_line.h).
#include "src/cli/command_line.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "src/cli/logging.h"
#include "src/common/did_you_mean.h"
#include "src/common/error.h"

namespace pkb::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDescription = "pkb: a benchmark of multi-GPU kernels written by language models";

// CLI11 reports an unknown command as a missing one; name it, with a suggestion, instead.
std::string unknown_command(int argc, char** argv, const std::vector<CommandEntry>& commands) {
  const std::string word = command_word(argc, argv);
  if (word.empty()) return "";
  std::vector<std::string> names;
  for (const auto& command : commands) names.emplace_back(command.name);
  if (std::find(names.begin(), names.end(), word) != names.end()) return "";
  std::string message = "unknown command '" + word + "'";
  if (auto near = closest_match(word, names)) return message + ", did you mean '" + *near + "'?";
  std::string all;
  for (const auto& name : names) all += (all.empty() ? "" : ", ") + name;
  return message + " (commands: " + all + ")";
}

int report(const char* kind, const std::exception& error, int code) {
  std::fprintf(stderr, "pkb: %s: %s\n", kind, error.what());
  return code;
}

fs::path torch_program() {
  if (const char* given = std::getenv("PKB_TORCH"); given && *given) return given;
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path("pkb-torch") : self.parent_path() / "pkb-torch";
}

}  // namespace

std::string command_word(int argc, char** argv) {
  for (int index = 1; index < argc; ++index) {
    const std::string arg = argv[index];
    if (arg == "--problems-dir") {
      ++index;  // its value
      continue;
    }
    if (arg.empty() || arg[0] == '-') continue;
    return arg;
  }
  return "";
}

int run_command_line(int argc, char** argv, const std::vector<CommandEntry>& commands,
                     const std::function<void()>& before_run) {
  CLI::App app{kDescription, "pkb"};
  app.require_subcommand(1);
  GlobalOptions global;
  app.add_option("--problems-dir", global.problems_dir,
                 "Folder of NNN_name problems (default: $PKB_PROBLEMS_DIR, else the source tree's problems/)");
  app.add_flag("-v,--verbose", global.verbose, "More log detail (-vv for per-rank detail)");
  app.add_flag("-q,--quiet", global.quiet, "Only warnings and errors on stderr");

  std::function<int()> run;
  for (const auto& command : commands) {
    CLI::App* sub = app.add_subcommand(command.name, command.help);
    if (!command.setup) continue;  // listed in --help; pkb hands it to pkb-torch before parsing
    auto runner = command.setup(*sub, global);
    sub->callback([&run, runner] { run = runner; });
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string unknown = unknown_command(argc, argv, commands);
    std::fprintf(stderr, "pkb: error: %s\n", unknown.empty() ? e.what() : unknown.c_str());
    return 2;
  }
  setup_logging(global);
  if (before_run) before_run();
  try {
    const int code = run();
    // Tables and --json documents are out before the process tears down libraries (libtorch,
    // the CUDA runtime), whose exit handlers pkb does not control.
    std::fflush(stdout);
    std::cout.flush();
    return code;
  } catch (const UsageError& e) {
    return report("error", e, 2);
  } catch (const InputError& e) {
    return report("error", e, 2);
  } catch (const WorkFailed& e) {
    return report("failed", e, 1);
  } catch (const std::exception& e) {
    return report("error", e, 1);
  }
}

int exec_pkb_torch(int argc, char** argv, const std::string& command) {
  const fs::path program = torch_program();
  std::vector<char*> args(argv, argv + argc);
  args.push_back(nullptr);
  ::execv(program.c_str(), args.data());
  std::fprintf(stderr,
               "pkb: error: %s runs in pkb-torch (the part of pkb that links libtorch), and %s cannot be "
               "started: %s (build it: cmake --build build --target pkb-torch)\n",
               command.c_str(), program.c_str(), std::strerror(errno));
  return 1;
}

}  // namespace pkb::cli
