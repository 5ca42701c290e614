// Loading a results directory: run.json first (its schema version decides how to read the rest),
// then samples.jsonl line by line, so every error can name the line it is about.
#include "src/results/results_dir.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "src/common/error.h"

namespace pkb::results {
namespace fs = std::filesystem;
namespace {

std::string read_text(const fs::path& path, const std::string& name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(name + ": cannot be read (missing, or not a results directory?)");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void read_run_json(ResultsDir& result) {
  const std::string name = result.name + "/run.json";
  const std::string text = read_text(result.dir / "run.json", name);
  result.run = nlohmann::json::parse(text, nullptr, false);
  if (result.run.is_discarded() || !result.run.is_object())
    throw InputError(name + ": not a JSON object (corrupt or cut short)");
  check_schema_version(result.run, name);
  auto problems = result.run.find("problems");
  if (problems == result.run.end() || problems->is_null()) return;
  if (!problems->is_array()) throw InputError(name, "problems", "an array", problems->dump());
  for (const auto& problem : *problems) {
    if (!problem.is_object() || !problem.contains("key") || !problem["key"].is_string())
      throw InputError(name, "problems[]", "objects with a string key", problem.dump());
    const std::string key = problem["key"].get<std::string>();
    result.problems.push_back(key);
    if (problem.contains("category") && problem["category"].is_string())
      result.categories[key] = problem["category"].get<std::string>();
  }
}

void read_samples(ResultsDir& result) {
  const std::string name = result.name + "/samples.jsonl";
  const std::string text = read_text(result.dir / "samples.jsonl", name);
  std::map<std::tuple<std::string, int, int>, int> seen;  // (problem, sample, turn) -> line
  std::size_t start = 0;
  for (int line_no = 1; start < text.size(); ++line_no) {
    const std::size_t end = text.find('\n', start);
    const bool torn = end == std::string::npos;
    const std::string line = text.substr(start, torn ? std::string::npos : end - start);
    start = torn ? text.size() : end + 1;
    const std::string where = name + ":" + std::to_string(line_no);
    nlohmann::json doc = nlohmann::json::parse(line, nullptr, false);
    if (doc.is_discarded()) {
      if (torn) {  // the writer died mid-line; the sample was never finished
        result.skipped.push_back({where, "torn last line (no final newline), skipped"});
        break;
      }
      throw InputError(where + ": " + (line.empty() ? "empty line" : "not valid JSON") +
                       " (a corrupt record; remove or repair the line)");
    }
    SampleRecord record = parse_sample_record(doc, name, line_no);
    const auto key = std::make_tuple(record.problem, record.sample, record.turn);
    auto [it, inserted] = seen.emplace(key, line_no);
    if (!inserted)
      throw InputError(where + ": duplicate record for " + record.problem + " sample " +
                       std::to_string(record.sample) + " turn " + std::to_string(record.turn) +
                       " (first at line " + std::to_string(it->second) + ")");
    if (record.category.empty() && result.categories.count(record.problem))
      record.category = result.categories.at(record.problem);
    result.samples.push_back(std::move(record));
  }
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
