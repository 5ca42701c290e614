// The fair-comparison rule (coverage.h): the union of what a set of runs judged, what each lacks,
// and the mixed pool of `pkb score` cut to the runs that judged all of it.
#include "src/score/coverage.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "src/common/error.h"

namespace pkb::score {
namespace {

// The number a key starts with and its digits ("041_rmsnorm" -> 41, "041"); -1 for other keys.
int key_number(const std::string& key, std::string& digits) {
  std::size_t end = 0;
  while (end < key.size() && std::isdigit(static_cast<unsigned char>(key[end]))) ++end;
  if (end == 0 || end > 6) return -1;
  digits = key.substr(0, end);
  return std::stoi(digits);
}

}  // namespace

std::vector<std::string> judged_problems(const std::vector<ProblemTally>& tallies) {
  std::vector<std::string> judged;
  for (const auto& tally : tallies)
    if (tally.n > 0 && !tally.unknown) judged.push_back(tally.problem);
  return judged;
}

CoverageSet cover(const std::vector<std::vector<std::string>>& judged) {
  std::set<std::string> all;
  for (const auto& run : judged) all.insert(run.begin(), run.end());
  CoverageSet set;
  set.problems.assign(all.begin(), all.end());
  for (const auto& run : judged) {
    Coverage coverage;
    coverage.judged = run;
    const std::set<std::string> mine(run.begin(), run.end());
    for (const auto& problem : set.problems)
      if (!mine.count(problem)) coverage.lacking.push_back(problem);
    set.runs.push_back(std::move(coverage));
  }
  return set;
}

std::string problems_text(const std::vector<std::string>& problems, std::size_t max_items) {
  std::vector<std::string> items;
  std::string first_digits, last_digits;
  int first = -1, last = -1;
  auto close_range = [&] {
    if (first < 0) return;
    items.push_back(first == last ? first_digits : first_digits + "-" + last_digits);
    first = last = -1;
  };
  for (const auto& key : problems) {
    std::string digits;
    const int number = key_number(key, digits);
    if (number >= 0 && first >= 0 && number == last + 1) {
      last = number, last_digits = digits;
      continue;
    }
    close_range();
    if (number >= 0) {
      first = last = number, first_digits = last_digits = digits;
      continue;
    }
    items.push_back(key);
  }
  close_range();
  std::string text;
  for (std::size_t index = 0; index < items.size() && index < max_items; ++index)
    text += (text.empty() ? "" : ", ") + items[index];
  if (items.size() > max_items) text += " and " + std::to_string(items.size() - max_items) + " more";
  return text;
}

Pool keep_complete_runs(Pool pool, std::vector<std::string>& notes) {
  if (!pool.mixed) return pool;
  std::vector<int> sources;  // distinct, in input order
  for (int source : pool.input_sources)
    if (std::find(sources.begin(), sources.end(), source) == sources.end()) sources.push_back(source);
  std::vector<std::vector<std::string>> judged;
  std::vector<std::string> names;
  for (int source : sources) {
    Pool run;
    run.problems = pool.problems;
    run.categories = pool.categories;
    for (const auto& item : pool.records)
      if (item.source == source) run.records.push_back(item);
    judged.push_back(judged_problems(tally_problems(run, {})));
    std::string name;
    for (std::size_t index = 0; index < pool.inputs.size(); ++index)
      if (pool.input_sources[index] == source) name += (name.empty() ? "" : " + ") + pool.inputs[index];
    names.push_back(name);
  }
  const CoverageSet set = cover(judged);
  std::set<int> left_out;
  std::string complete;
  for (std::size_t index = 0; index < sources.size(); ++index) {
    const Coverage& run = set.runs[index];
    if (run.complete()) {
      complete += (complete.empty() ? "" : ", ") + names[index];
      continue;
    }
    left_out.insert(sources[index]);
    notes.push_back(names[index] + " judged " + std::to_string(run.judged.size()) + "/" +
                    std::to_string(set.problems.size()) + " of the problems the runs judged (lacks " +
                    problems_text(run.lacking) +
                    "): left out, so every number here is over the same problems for every run");
  }
  if (left_out.size() == sources.size())
    throw InputError("--allow-mixed: no run judged every problem the runs judged between them (" +
                     std::to_string(set.problems.size()) +
                     "), so they cannot be compared on the same problems; score each alone");
  if (left_out.empty()) return pool;
  std::vector<PooledRecord> kept;
  for (const auto& item : pool.records)
    if (!left_out.count(item.source)) kept.push_back(item);
  pool.records = std::move(kept);
  return pool;
}

}  // namespace pkb::score
