// The merge rule: equal settings pool their samples; a differing fingerprint field (or hardware) is
// named with both values (results::first_difference, the rule pkb merge applies too), because
// silently mixing temperatures or GPUs would make one score of two different experiments.
#include "src/score/merge.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "src/common/error.h"

namespace pkb::score {

Pool merge_dirs(const std::vector<results::ResultsDir>& dirs, bool allow_mixed) {
  PKB_ASSERT(!dirs.empty(), "merge_dirs: no directories");
  Pool pool;
  pool.fingerprint = dirs.front().run.fingerprint;
  pool.hardware_key = dirs.front().run.hardware_key;
  std::map<std::tuple<int, std::string, int, int>, const results::ScoredSample*> seen;
  for (std::size_t index = 0; index < dirs.size(); ++index) {
    const results::ResultsDir& dir = dirs[index];
    pool.inputs.push_back(dir.name);
    int source = 0;
    if (const auto diff = results::first_difference(dirs.front().run, dir.run)) {
      if (!allow_mixed)
        throw InputError(dir.name + "/run.json: " + diff->field + " is " + diff->other + ", but " +
                         dirs.front().name + "/run.json has " + diff->first +
                         ": different settings are not merged (--allow-mixed scores them together)");
      pool.mixed = true;
      source = static_cast<int>(index);
      for (std::size_t earlier = 1; earlier < index; ++earlier)
        if (!results::first_difference(dirs[earlier].run, dir.run)) {
          source = pool.input_sources[earlier];
          break;
        }
    }
    pool.input_sources.push_back(source);
    for (const auto& record : dir.samples) {
      auto [it, inserted] =
          seen.emplace(std::make_tuple(source, record.problem, record.sample, record.turn), &record);
      if (!inserted)
        throw InputError(record.file + ":" + std::to_string(record.line) + ": duplicate record for " +
                         record.problem + " sample " + std::to_string(record.sample) + " turn " +
                         std::to_string(record.turn) + " (also at " + it->second->file + ":" +
                         std::to_string(it->second->line) + ")");
      pool.records.push_back({&record, source});
      if (!record.category.empty()) pool.categories.emplace(record.problem, record.category);
    }
    for (const auto& problem : dir.run.problems)
      if (std::find(pool.problems.begin(), pool.problems.end(), problem.key) == pool.problems.end())
        pool.problems.push_back(problem.key);
    for (const auto& problem : dir.run.problems)
      if (!problem.category.empty()) pool.categories.emplace(problem.key, problem.category);
    pool.skipped.insert(pool.skipped.end(), dir.skipped.begin(), dir.skipped.end());
  }
  for (const auto& item : pool.records)
    if (std::find(pool.problems.begin(), pool.problems.end(), item.record->problem) == pool.problems.end())
      pool.problems.push_back(item.record->problem);
  return pool;
}

}  // namespace pkb::score
