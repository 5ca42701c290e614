// `pkb leaderboard ROOT --out DIR [--seed S] [--bootstrap N]`: every results directory under ROOT,
// scored and ranked per (hardware, W), written as leaderboard.md and a self-contained index.html.
#include <spdlog/spdlog.h>

#include <iostream>

#include "src/cli/command.h"
#include "src/leaderboard/leaderboard.h"

namespace pkb::cli {
namespace {

struct LeaderboardFlags {
  std::string root, out;
  std::uint64_t seed = 1;
  int bootstrap = 1000;
};

int run_leaderboard(const LeaderboardFlags& flags) {
  const leaderboard::Leaderboard board =
      leaderboard::build_leaderboard(flags.root, flags.seed, flags.bootstrap);
  leaderboard::write_leaderboard(board, flags.out);
  std::size_t rows = 0, dirs = 0;
  for (const auto& group : board.groups) {
    rows += group.entries.size();
    for (const auto& entry : group.entries) dirs += entry.dirs.size();
  }
  spdlog::info("leaderboard: {} results directories, {} rows in {} tables: {}/leaderboard.md, {}/index.html",
               dirs, rows, board.groups.size(), flags.out, flags.out);
  return 0;
}

}  // namespace

std::function<int()> setup_leaderboard(CLI::App& app, const GlobalOptions&) {
  auto flags = std::make_shared<LeaderboardFlags>();
  app.add_option("root", flags->root, "Folder searched for results directories (run.json + samples.jsonl)")
      ->required();
  app.add_option("--out", flags->out, "Folder for leaderboard.md and index.html (created)")->required();
  app.add_option("--seed", flags->seed, "Seed of the bootstrap resampling (default 1)");
  app.add_option("--bootstrap", flags->bootstrap, "Bootstrap resamples for the 95% intervals (default 1000)");
  return [flags] { return run_leaderboard(*flags); };
}

}  // namespace pkb::cli
