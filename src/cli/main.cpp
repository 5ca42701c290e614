// pkb's entry point: the subcommand table, global flags, and the mapping from errors to exit codes
// (0 success, 1 the work failed, 2 bad usage or input; STYLE.md §5). Run `pkb --help`.
#include <ATen/Parallel.h>

#include <cstdio>
#include <iostream>

#include "src/cli/command.h"
#include "src/cli/logging.h"
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
    {"validate", "Prove a problem's check passes reordered sums and fails broken collectives",
     pkb::cli::setup_validate},
    {"doctor", "What this machine offers: GPUs, peer access, NVLink, multicast, library versions",
     pkb::cli::setup_doctor},
};

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
    std::fprintf(stderr, "pkb: error: %s\n", e.what());
    return 2;
  }
  pkb::cli::setup_logging(global);
  // Simulated ranks are threads; one ATen thread each keeps W ranks from oversubscribing the CPU.
  at::set_num_threads(1);
  try {
    return run();
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
