// Loading a results directory: run.json first (its schema version decides how to read the rest),
// then samples.jsonl line by line, so every error can name the line it is about.
#include "src/results/results_dir.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "src/common/error.h"
#include "src/results/run_file.h"
#include "src/results/samples_file.h"

namespace pkb::results {
namespace fs = std::filesystem;
namespace {

void read_run_json(ResultsDir& result) {
  result.run = run_info_from(read_run_file(result.dir), result.name + "/run.json");
}

void read_samples(ResultsDir& result) {
  const std::string name = result.name + "/samples.jsonl";
  if (!fs::is_regular_file(result.dir / "samples.jsonl"))
    throw InputError(name + ": cannot be read (missing, or not a results directory?)");
  const RecordsFile file = read_records(result.dir / "samples.jsonl", name);
  std::map<std::string, std::string> categories;  // problem key -> category, from run.json
  for (const auto& problem : result.run.problems)
    if (!problem.category.empty()) categories[problem.key] = problem.category;
  std::map<std::tuple<std::string, int, int>, int> seen;  // (problem, sample, turn) -> line
  for (const auto& line : file.lines) {
    const int line_no = line.number;
    const std::string where = name + ":" + std::to_string(line_no);
    ScoredSample record = scored_sample(line.record, name, line_no, line.text);
    const auto key = std::make_tuple(record.problem, record.sample, record.turn);
    auto [it, inserted] = seen.emplace(key, line_no);
    if (!inserted)
      throw InputError(where + ": duplicate record for " + record.problem + " sample " +
                       std::to_string(record.sample) + " turn " + std::to_string(record.turn) +
                       " (first at line " + std::to_string(it->second) + ")");
    if (record.category.empty() && categories.count(record.problem))
      record.category = categories.at(record.problem);
    result.samples.push_back(std::move(record));
  }
  if (file.torn_line)  // the writer died mid-line; the sample was never finished
    result.skipped.push_back({name + ":" + std::to_string(*file.torn_line), "torn last line (no final newline), skipped"});
}

}  // namespace

bool is_results_dir(const fs::path& dir) {
  std::error_code error;
  return fs::is_regular_file(dir / "run.json", error) &&
         fs::is_regular_file(dir / "samples.jsonl", error);
}

ResultsDir load_results_dir(const fs::path& dir) {
  ResultsDir result;
  result.dir = dir;
  result.name = dir.string();
  while (result.name.size() > 1 && result.name.back() == '/') result.name.pop_back();
  std::error_code error;
  if (!fs::is_directory(dir, error)) throw InputError(result.name + ": not a directory");
  read_run_json(result);
  read_samples(result);
  return result;
}

std::vector<fs::path> find_results_dirs(const fs::path& root) {
  std::vector<fs::path> found;
  std::error_code error;
  if (!fs::is_directory(root, error)) throw InputError(root.string() + ": not a directory");
  if (is_results_dir(root)) return {root};
  for (auto it = fs::recursive_directory_iterator(root, error);
       it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (error) throw InputError(root.string() + ": cannot be listed: " + error.message());
    if (!it->is_directory(error)) continue;
    if (is_results_dir(it->path())) {
      found.push_back(it->path());
      it.disable_recursion_pending();
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace pkb::results
