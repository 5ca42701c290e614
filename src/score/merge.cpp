// The merge rule: equal settings pool their samples; a differing fingerprint field (or hardware) is
// named with both values, because silently mixing temperatures or GPUs would make one score of two
// different experiments.
#include "src/score/merge.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

#include "src/common/error.h"

namespace pkb::score {
namespace {

std::string hardware_of(const results::ResultsDir& dir) {
  auto it = dir.run.find("hardware_key");
  return it != dir.run.end() && it->is_string() ? it->get<std::string>() : "";
}

nlohmann::json fingerprint_of(const results::ResultsDir& dir) {
  auto it = dir.run.find("fingerprint");
  return it != dir.run.end() && it->is_object() ? *it : nlohmann::json::object();
}

std::string shown(const nlohmann::json& value) { return value.is_null() ? "absent" : value.dump(); }

// The first field in which `other` differs from `first`, as "fingerprint.X" with both values.
std::optional<std::tuple<std::string, std::string, std::string>> difference(
    const results::ResultsDir& first, const results::ResultsDir& other) {
  const nlohmann::json a = fingerprint_of(first), b = fingerprint_of(other);
  std::set<std::string> names;
  for (const auto& item : a.items()) names.insert(item.key());
  for (const auto& item : b.items()) names.insert(item.key());
  for (const auto& name : names) {
    const nlohmann::json va = a.value(name, nlohmann::json()), vb = b.value(name, nlohmann::json());
    if (va != vb) return std::make_tuple("fingerprint." + name, shown(va), shown(vb));
  }
  if (hardware_of(first) != hardware_of(other))
    return std::make_tuple(std::string("hardware_key"), shown(first.run.value("hardware_key", nlohmann::json())),
                           shown(other.run.value("hardware_key", nlohmann::json())));
  return std::nullopt;
}

}  // namespace

Pool merge_dirs(const std::vector<results::ResultsDir>& dirs, bool allow_mixed) {
  PKB_ASSERT(!dirs.empty(), "merge_dirs: no directories");
  Pool pool;
  pool.fingerprint = fingerprint_of(dirs.front());
  pool.hardware_key = hardware_of(dirs.front());
  std::map<std::tuple<int, std::string, int, int>, const results::SampleRecord*> seen;
  for (std::size_t index = 0; index < dirs.size(); ++index) {
    const results::ResultsDir& dir = dirs[index];
    pool.inputs.push_back(dir.name);
    int source = 0;
    if (auto diff = difference(dirs.front(), dir)) {
      const auto& [field, first_value, value] = *diff;
      if (!allow_mixed)
        throw InputError(dir.name + "/run.json: " + field + " is " + value + ", but " +
                         dirs.front().name + "/run.json has " + first_value +
                         ": different settings are not merged (--allow-mixed scores them together)");
      pool.mixed = true;
      source = static_cast<int>(index);
    }
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
    for (const auto& problem : dir.problems)
      if (std::find(pool.problems.begin(), pool.problems.end(), problem) == pool.problems.end())
        pool.problems.push_back(problem);
    for (const auto& [problem, category] : dir.categories) pool.categories.emplace(problem, category);
    pool.skipped.insert(pool.skipped.end(), dir.skipped.begin(), dir.skipped.end());
  }
  for (const auto& item : pool.records)
    if (std::find(pool.problems.begin(), pool.problems.end(), item.record->problem) == pool.problems.end())
      pool.problems.push_back(item.record->problem);
  return pool;
}

}  // namespace pkb::score
