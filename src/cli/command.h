// What every subcommand shares: the global flags, and the signature a cmd_<name>.cpp exports
// to main.cpp's subcommand table.
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace pkb::cli {

struct GlobalOptions {
  std::string problems_dir;  // --problems-dir; empty: $PKB_PROBLEMS_DIR, then the source tree's
  int verbose = 0;           // -v, -vv
  bool quiet = false;        // -q
};

/// Adds a subcommand's flags to `app` and returns the function that runs it (its exit code).
using CommandSetup = std::function<std::function<int()>(CLI::App& app, const GlobalOptions& global)>;

std::function<int()> setup_list(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_show(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_reference(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_validate(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_doctor(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_sol(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_add_problem(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_prompt(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_generate(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_eval(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_run(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_evaluate(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_score(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_leaderboard(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_merge(CLI::App& app, const GlobalOptions& global);
std::function<int()> setup_slurm(CLI::App& app, const GlobalOptions& global);

}  // namespace pkb::cli
