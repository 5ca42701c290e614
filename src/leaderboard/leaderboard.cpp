// Building the leaderboard: find, load, merge and score. Directories with equal settings and
// hardware become one row (shards, resumed halves); rows are bucketed by (hardware, W).
#include "src/leaderboard/leaderboard.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <tuple>

#include "src/common/error.h"
#include "src/results/results_dir.h"

namespace pkb::leaderboard {
namespace fs = std::filesystem;
namespace {

std::string text_of(const nlohmann::json& value, const std::string& absent) {
  if (value.is_null()) return absent;
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string world_of(const nlohmann::json& fingerprint) {
  const nlohmann::json world = fingerprint.value("world", nlohmann::json());
  if (world.is_number_integer() && world.get<int>() == 0) return "largest per problem";
  return text_of(world, "?");
}

double rank_value(const Entry& entry, const std::string& metric) {
  const score::Estimate* estimate = entry.score.overall.find(metric);
  return estimate && estimate->value ? *estimate->value : -1.0;
}

int smallest_n(const std::vector<score::ProblemTally>& tallies) {
  int smallest = 0;
  for (const auto& tally : tallies)
    if (tally.n > 0 && (smallest == 0 || tally.n < smallest)) smallest = tally.n;
  return smallest;
}

// Errors name the file under its full path (so the CI log points at what to fix); the table names
// directories relative to the root.
results::ResultsDir load_named(const fs::path& dir, const fs::path& root) {
  results::ResultsDir loaded = results::load_results_dir(dir);
  loaded.name = dir.lexically_relative(root).string();
  if (loaded.name.empty() || loaded.name == ".") loaded.name = dir.filename().string();
  return loaded;
}

}  // namespace

std::vector<double> chart_ps() { return {0, 0.5, 1, 1.25, 1.5, 2, 2.5, 3}; }

std::vector<std::string> table_metrics(const Group& group) {
  const std::string k = std::to_string(group.k);
  return {"pass@1", "pass@" + k, score::fast_name(1, group.k), score::fast_name(1.5, group.k),
          "geomean_speedup", "median_sol_fraction"};
}

int group_turns(const Group& group) {
  int turns = 1;
  for (const auto& entry : group.entries) turns = std::max(turns, entry.score.turns);
  return turns;
}

std::string simulated_note(const Group& group) {
  for (const auto& entry : group.entries)
    if (entry.score.overall.simulated_records > 0)
      return "Judged on the simulated node (the candidates' PTX run on the CPU): pass@k is a real "
             "correctness verdict, but nothing was timed, so fast_p and the speedups are empty; rank models "
             "by speed only on GPU tables.";
  return "";
}

Leaderboard build_leaderboard(const fs::path& root, std::uint64_t seed, int bootstrap) {
  Leaderboard board;
  board.root = root.string();
  board.chart_ps = chart_ps();
  const std::vector<fs::path> found = results::find_results_dirs(root);
  if (found.empty())
    throw InputError(root.string() + ": no results directories (a folder with run.json and samples.jsonl)");
  // (hardware, world) -> (fingerprint) -> dirs
  std::map<std::pair<std::string, std::string>, std::map<std::string, std::vector<results::ResultsDir>>>
      buckets;
  for (const auto& dir : found) {
    results::ResultsDir loaded = load_named(dir, root);
    const nlohmann::json fingerprint = loaded.run.fingerprint;
    const std::string hardware =
        loaded.run.hardware_key.empty() ? "unknown hardware" : loaded.run.hardware_key;
    buckets[{hardware, world_of(fingerprint)}][fingerprint.dump() + "\n" + hardware].push_back(
        std::move(loaded));
  }
  for (auto& [key, by_settings] : buckets) {
    Group group;
    group.hardware = key.first;
    group.world = key.second;
    std::vector<score::Pool> pools;
    int smallest = 0;
    for (auto& [settings, dirs] : by_settings) {
      score::Pool pool = score::merge_dirs(dirs, false);
      const int n = smallest_n(score::tally_problems(pool, {}));
      if (n > 0 && (smallest == 0 || n < smallest)) smallest = n;
      pools.push_back(std::move(pool));
    }
    group.k = std::max(1, std::min(smallest, 10));
    score::ScoreSettings settings;
    settings.ks = group.k > 1 ? std::vector<int>{1, group.k} : std::vector<int>{1};
    settings.ks_given = true;
    settings.ps = board.chart_ps;
    settings.seed = seed;
    settings.bootstrap = bootstrap;
    for (auto& pool : pools) {
      Entry entry;
      entry.model = text_of(pool.fingerprint.value("model", nlohmann::json()), "unknown model");
      entry.dtype = text_of(pool.fingerprint.value("dtype", nlohmann::json()), "?");
      entry.dirs = pool.inputs;
      entry.score = score::compute_score(std::move(pool), settings);
      for (const auto& category : entry.score.categories)
        if (std::find(group.categories.begin(), group.categories.end(), category.name) ==
            group.categories.end())
          group.categories.push_back(category.name);
      group.entries.push_back(std::move(entry));
    }
    std::sort(group.categories.begin(), group.categories.end());
    const std::vector<std::string> metrics = table_metrics(group);
    std::stable_sort(group.entries.begin(), group.entries.end(), [&](const Entry& a, const Entry& b) {
      return std::make_tuple(rank_value(a, metrics[2]), rank_value(a, metrics[1]), rank_value(a, metrics[0])) >
             std::make_tuple(rank_value(b, metrics[2]), rank_value(b, metrics[1]), rank_value(b, metrics[0]));
    });
    board.groups.push_back(std::move(group));
  }
  board.records = std::make_shared<decltype(buckets)>(std::move(buckets));  // moves keep nodes
  for (std::size_t g = 0; g < board.groups.size(); ++g)
    for (std::size_t r = 0; r < board.groups[g].entries.size(); ++r)
      board.groups[g].entries[r].anchor = "g" + std::to_string(g) + "-r" + std::to_string(r);
  return board;
}

void write_leaderboard(const Leaderboard& board, const fs::path& out) {
  std::error_code error;
  fs::create_directories(out, error);
  if (error) throw Error(out.string() + ": cannot create: " + error.message());
  for (const auto& [name, text] : {std::make_pair(std::string("leaderboard.md"), render_markdown(board)),
                                   std::make_pair(std::string("index.html"), render_html(board))}) {
    const fs::path temp = out / (name + ".tmp");
    {
      std::ofstream file(temp, std::ios::binary);
      file << text;
      if (!file.flush()) throw Error(temp.string() + ": cannot write");
    }
    fs::rename(temp, out / name, error);
    if (error) throw Error((out / name).string() + ": cannot write: " + error.message());
  }
}

}  // namespace pkb::leaderboard
