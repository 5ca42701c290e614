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

// The earliest start date ("2026-11-30") of the directories behind a row; "" when none says.
std::string start_date(const std::vector<results::ResultsDir>& dirs) {
  std::string earliest;
  for (const auto& dir : dirs) {
    const std::string started = text_of(dir.run.doc.value("started", nlohmann::json()), "");
    if (started.size() >= 10 && (earliest.empty() || started < earliest)) earliest = started;
  }
  return earliest.substr(0, std::min<std::size_t>(10, earliest.size()));
}

// What tells a row apart from another of its model: dtype, dims, turns, the date, and any other
// setting in which it differs from a row of the same model in the group (`run`); of those, the
// ones that differ (`distinct`).
void describe_runs(Group& group, const std::vector<std::string>& dates) {
  std::vector<std::vector<std::pair<std::string, std::string>>> parts;  // per entry: (field, text)
  for (std::size_t index = 0; index < group.entries.size(); ++index) {
    const Entry& entry = group.entries[index];
    const nlohmann::json& mine = entry.score.pool.fingerprint;
    const int turns = entry.score.turns;
    std::vector<std::pair<std::string, std::string>> mine_parts = {
        {"dtype", entry.dtype},
        {"dims", "dims " + text_of(mine.value("dims", nlohmann::json()), "?")},
        {"turns", std::to_string(turns) + (turns == 1 ? " turn" : " turns")}};
    if (!dates[index].empty()) mine_parts.emplace_back("date", dates[index]);
    for (const auto& other : group.entries) {
      if (&other == &entry || other.model != entry.model) continue;
      for (const auto& [field, value] : mine.items()) {
        if (field == "model" || field == "dtype" || field == "dims" || field == "turns") continue;
        const bool listed = std::any_of(mine_parts.begin(), mine_parts.end(),
                                        [&](const auto& part) { return part.first == field; });
        if (other.score.pool.fingerprint.value(field, nlohmann::json()) != value && !listed)
          mine_parts.emplace_back(field, field + " " + text_of(value, "absent"));
      }
    }
    parts.push_back(std::move(mine_parts));
  }
  auto text_of_part = [&](std::size_t entry, const std::string& field) {
    for (const auto& [name, text] : parts[entry])
      if (name == field) return text;
    return std::string();
  };
  for (std::size_t index = 0; index < group.entries.size(); ++index) {
    Entry& entry = group.entries[index];
    for (const auto& [field, text] : parts[index]) {
      entry.run += (entry.run.empty() ? "" : ", ") + text;
      for (std::size_t other = 0; other < group.entries.size(); ++other)
        if (other != index && group.entries[other].model == entry.model && text_of_part(other, field) != text) {
          entry.distinct += (entry.distinct.empty() ? "" : ", ") + text;
          break;
        }
    }
  }
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

// The fair-ranking rule (docs/RESULTS.md, "Leaderboard"): the group ranks on every problem some
// row judged; a row that judged them all is ranked, one that lacks some is listed below, unranked.
void rank_fairly(Group& group) {
  std::vector<std::vector<std::string>> judged;
  for (const auto& entry : group.entries) judged.push_back(score::judged_problems(entry.score.problems));
  score::CoverageSet set = score::cover(judged);
  group.problems = std::move(set.problems);
  for (std::size_t index = 0; index < group.entries.size(); ++index) {
    group.entries[index].coverage = std::move(set.runs[index]);
    // Where no row has a verdict (all compiled without a GPU), there is nothing to rank on.
    group.entries[index].ranked = group.entries[index].coverage.complete() && !group.problems.empty();
  }
  const std::string k = "pass@" + std::to_string(group.k), fast = score::fast_name(1, group.k);
  auto key = [&](const Entry& entry) {
    return std::make_tuple(entry.ranked, entry.coverage.judged.size(), rank_value(entry, fast),
                           rank_value(entry, k), rank_value(entry, "pass@1"));
  };
  std::stable_sort(group.entries.begin(), group.entries.end(),
                   [&](const Entry& a, const Entry& b) { return key(a) > key(b); });
}

}  // namespace

std::vector<double> chart_ps() { return {0, 0.5, 1, 1.25, 1.5, 2, 2.5, 3}; }

std::vector<std::string> table_metrics(const Group& group) {
  std::vector<std::string> metrics = {"pass@1"};
  if (group.k > 1) metrics.push_back("pass@" + std::to_string(group.k));
  if (!group_timed(group)) return metrics;
  for (const std::string& metric : {score::fast_name(1, group.k), score::fast_name(1.5, group.k),
                                    std::string("geomean_speedup")})
    metrics.push_back(metric);
  // Only where a run was checked against the speed of light: otherwise a column of "-".
  for (const auto& entry : group.entries)
    if (const score::Estimate* sol = entry.score.overall.find("median_sol_fraction"); sol && sol->value) {
      metrics.push_back("median_sol_fraction");
      break;
    }
  return metrics;
}

std::size_t ranked_count(const Group& group) {
  std::size_t count = 0;
  while (count < group.entries.size() && group.entries[count].ranked) ++count;
  return count;
}

std::string row_name(const Group& group, const Entry& entry) {
  for (const auto& other : group.entries)
    if (&other != &entry && other.model == entry.model)
      return entry.model + " (" + (entry.distinct.empty() ? entry.run : entry.distinct) + ")";
  return entry.model;
}

bool group_timed(const Group& group) {
  bool simulated = false;
  for (const auto& entry : group.entries) {
    if (entry.score.overall.timed_samples > 0) return true;
    simulated = simulated || entry.score.overall.simulated_records > 0;
  }
  return !simulated;  // a GPU table where nothing was fast enough to time still shows its zeros
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
    std::vector<std::string> dates;
    for (auto& [settings_key, dirs] : by_settings) dates.push_back(start_date(dirs));
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
    describe_runs(group, dates);
    rank_fairly(group);
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
