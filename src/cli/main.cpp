// pkb's entry point: the subcommand table, global flags, and the mapping from errors to exit codes
// (0 success, 1 the work failed, 2 bad usage or input; STYLE.md §5). Run `pkb --help`.
#include <ATen/Parallel.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "src/cli/command.h"
#include "src/cli/logging.h"
#include "src/common/did_you_mean.h"
#include "src/common/error.h"

namespace {

struct CommandEntry {
  const char* name;
  const char* help;
  pkb::cli::CommandSetup setup;
};

const CommandEntry kCommands[] = {
    {"list", "List the problems: id, name, category, world sizes, default dims", pkb::cli::setup_list},
    {"show", "Show one problem: spec, Python reference, argument shapes", pkb::cli::setup_show},
    {"reference", "Run the libtorch reference on W simulated ranks; --dump writes safetensors",
     pkb::cli::setup_reference},
#ifndef PKB_PROBLEM_TOOLS_ONLY
    {"prompt", "Print the exact prompt a model would get for a problem (no API call)", pkb::cli::setup_prompt},
    {"generate", "Ask a model for solutions and write them to a results directory (no evaluation)",
     pkb::cli::setup_generate},
    {"eval", "Compile, check and time one solution (a model's answer, or a .cu file with --plan)",
     pkb::cli::setup_eval},
    {"run", "Generate, compile and evaluate: the whole benchmark into a results directory", pkb::cli::setup_run},
    {"evaluate", "Evaluate the answers in a results directory written by pkb generate", pkb::cli::setup_evaluate},
    {"score", "pass@k, fast_p@k, speedups and error kinds of results directories, with 95% intervals", pkb::cli::setup_score},
    {"leaderboard", "Rank every results directory under a folder: leaderboard.md and a self-contained index.html", pkb::cli::setup_leaderboard},
    {"merge", "Merge the shard results directories of one run (--shard I/N) into one", pkb::cli::setup_merge},
    {"slurm", "Run shards as a Slurm array job (submit) and follow their progress (status)", pkb::cli::setup_slurm},
#endif
    {"validate", "Prove a problem's check passes reordered sums and fails broken collectives",
     pkb::cli::setup_validate},
    {"add-problem", "Scaffold a new problem: spec, Python reference, C++ reference skeleton",
     pkb::cli::setup_add_problem},
    {"doctor", "What this machine offers: GPUs, peer access, NVLink, multicast, library versions",
     pkb::cli::setup_doctor},
    {"sol", "Speed of light of a problem on a hardware profile: each resource's floor and which binds", pkb::cli::setup_sol},
};

// CLI11 reports an unknown command as a missing one; name it, with a suggestion, instead.
std::string unknown_command(int argc, char** argv) {
  std::vector<std::string> names;
  for (const auto& command : kCommands) names.emplace_back(command.name);
  for (int index = 1; index < argc; ++index) {
    const std::string arg = argv[index];
    if (arg == "--problems-dir") {
      ++index;  // its value
      continue;
    }
    if (arg.empty() || arg[0] == '-') continue;
    if (std::find(names.begin(), names.end(), arg) != names.end()) return "";
    std::string message = "unknown command '" + arg + "'";
    if (auto near = pkb::closest_match(arg, names)) return message + ", did you mean '" + *near + "'?";
    std::string all;
    for (const auto& name : names) all += (all.empty() ? "" : ", ") + name;
    return message + " (commands: " + all + ")";
  }
  return "";
}

int report(const char* kind, const std::exception& error, int code) {
  std::fprintf(stderr, "pkb: %s: %s\n", kind, error.what());
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pkb: a benchmark of multi-GPU kernels written by language models"};
  app.require_subcommand(1);
  pkb::cli::GlobalOptions global;
  app.add_option("--problems-dir", global.problems_dir,
                 "Folder of NNN_name problems (default: $PKB_PROBLEMS_DIR, else the source tree's problems/)");
  app.add_flag("-v,--verbose", global.verbose, "More log detail (-vv for per-rank detail)");
  app.add_flag("-q,--quiet", global.quiet, "Only warnings and errors on stderr");

  std::function<int()> run;
  for (const auto& command : kCommands) {
    CLI::App* sub = app.add_subcommand(command.name, command.help);
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
    const std::string unknown = unknown_command(argc, argv);
    std::fprintf(stderr, "pkb: error: %s\n", unknown.empty() ? e.what() : unknown.c_str());
    return 2;
  }
  pkb::cli::setup_logging(global);
  // Simulated ranks are threads; one ATen thread each keeps W ranks from oversubscribing the CPU.
  at::set_num_threads(1);
  try {
    const int code = run();
    // Tables and --json documents are out before the process tears down libraries (libtorch,
    // the CUDA runtime), whose exit handlers pkb does not control.
    std::fflush(stdout);
    std::cout.flush();
    return code;
  } catch (const pkb::UsageError& e) {
    return report("error", e, 2);
  } catch (const pkb::InputError& e) {
    return report("error", e, 2);
  } catch (const pkb::WorkFailed& e) {
    return report("failed", e, 1);
  } catch (const std::exception& e) {
    return report("error", e, 1);
  }
}
