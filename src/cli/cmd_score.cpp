// `pkb score DIR... [--k 1,5,10] [--p 0,1,1.5,2] [--by category|problem] [--json|--csv]
// [--allow-mixed] [--seed S] [--bootstrap N]`: pass@k, fast_p@k and the rest (docs/RESULTS.md) for
// one run, or several runs of the same settings merged.
#include <spdlog/spdlog.h>

#include <iostream>
#include <sstream>

#include "src/cli/command.h"
#include "src/common/error.h"
#include "src/results/results_dir.h"
#include "src/score/score_report.h"

namespace pkb::cli {
namespace {

struct ScoreFlags {
  std::vector<std::string> dirs;
  std::string ks, ps, by;
  bool json = false, csv = false, allow_mixed = false;
  std::uint64_t seed = 1;
  int bootstrap = 1000;
};

template <typename T>
std::vector<T> parse_list(const std::string& flag, const std::string& text, const char* expected) {
  std::vector<T> values;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    std::istringstream parse(item);
    T value{};
    if (item.empty() || !(parse >> value) || !parse.eof())
      throw UsageError(flag + " " + text + ": expected " + expected);
    values.push_back(value);
  }
  if (values.empty()) throw UsageError(flag + " " + text + ": expected " + expected);
  return values;
}

score::Breakdown breakdown(const std::string& by) {
  if (by.empty()) return score::Breakdown::none;
  if (by == "category") return score::Breakdown::category;
  if (by == "problem") return score::Breakdown::problem;
  throw UsageError("--by " + by + ": expected category or problem");
}

int run_score(const ScoreFlags& flags) {
  if (flags.json && flags.csv) throw UsageError("--json and --csv: choose one");
  score::ScoreSettings settings;
  if (!flags.ks.empty()) {
    settings.ks = parse_list<int>("--k", flags.ks, "comma-separated positive integers (1,5,10)");
    settings.ks_given = true;
  }
  if (!flags.ps.empty())
    settings.ps = parse_list<double>("--p", flags.ps, "comma-separated numbers >= 0 (0,1,1.5,2)");
  settings.seed = flags.seed;
  settings.bootstrap = flags.bootstrap;
  const score::Breakdown by = breakdown(flags.by);
  std::vector<results::ResultsDir> dirs;
  for (const auto& dir : flags.dirs) dirs.push_back(results::load_results_dir(dir));
  for (const auto& dir : dirs)
    for (const auto& skipped : dir.skipped) spdlog::warn("score: {}: {}", skipped.where, skipped.reason);
  const score::Score result = score::compute_score(score::merge_dirs(dirs, flags.allow_mixed), settings);
  if (flags.json)
    std::cout << score::score_to_json(result).dump(2) << "\n";
  else if (flags.csv)
    std::cout << score::score_csv(result, by);
  else
    std::cout << score::score_table(result, by);
  return 0;
}

}  // namespace

std::function<int()> setup_score(CLI::App& app, const GlobalOptions&) {
  auto flags = std::make_shared<ScoreFlags>();
  app.add_option("dirs", flags->dirs, "Results directories (several: merged when their settings are equal)")
      ->required();
  app.add_option("--k", flags->ks, "Comma-separated k of pass@k and fast_p@k (default 1,5,10, leaving out k above a problem's samples)");
  app.add_option("--p", flags->ps, "Comma-separated speedup thresholds p of fast_p (default 0,1,1.5,2)");
  app.add_option("--by", flags->by, "Add a breakdown table: category or problem (default: none)");
  app.add_flag("--json", flags->json, "Print one JSON document instead of the table");
  app.add_flag("--csv", flags->csv, "Print CSV rows (overall, then the --by breakdown) instead of the table");
  app.add_flag("--allow-mixed", flags->allow_mixed,
               "Score directories with different settings together (their samples stay distinct)");
  app.add_option("--seed", flags->seed, "Seed of the bootstrap resampling (default 1)");
  app.add_option("--bootstrap", flags->bootstrap, "Bootstrap resamples for the 95% intervals (default 1000)");
  return [flags] { return run_score(*flags); };
}

}  // namespace pkb::cli
