// Settings are compared field by field so the message can say which one differs: merging shards
// of two temperatures would silently score one experiment made of two.
#include "src/merge/merge_check.h"

#include <map>
#include <set>
#include <tuple>

#include "src/common/error.h"
#include "src/shard/shard.h"

namespace pkb::merge {
namespace {

nlohmann::json field(const nlohmann::json& doc, const std::string& name) {
  const auto it = doc.find(name);
  return it == doc.end() ? nlohmann::json() : *it;
}

void refuse(const ShardDir& first, const ShardDir& other, const std::string& name,
            const std::string& first_value, const std::string& value) {
  throw InputError(other.name + "/run.json: " + name + " is " + value + ", but " + first.name +
                   "/run.json has " + first_value + ": shards of different settings are not merged");
}

std::vector<std::string> problem_keys(const ShardDir& dir) {
  std::vector<std::string> keys;
  for (const auto& problem : dir.run.problems) keys.push_back(problem.key);
  return keys;
}

bool finished(const ShardDir& dir) { return dir.run.finished && !dir.run.cancelled; }

}  // namespace

void check_same_settings(const std::vector<ShardDir>& dirs) {
  const ShardDir& first = dirs.front();
  std::map<std::string, const ShardDir*> shard_owner;
  for (const ShardDir& dir : dirs) {
    for (const char* name : {"kind", "schema_version"})
      if (field(first.run.doc, name) != field(dir.run.doc, name))
        refuse(first, dir, name, results::setting_text(field(first.run.doc, name)),
               results::setting_text(field(dir.run.doc, name)));
    // The rule pkb score applies: fingerprint fields by name, then the hardware.
    if (const auto diff = results::first_difference(first.run, dir.run))
      refuse(first, dir, diff->field, diff->first, diff->other);
    const int count_a = first.run.shard ? first.run.shard->count : 0;
    const int count_b = dir.run.shard ? dir.run.shard->count : 0;
    if (count_a != count_b)
      refuse(first, dir, "shard.count", first.run.shard ? std::to_string(count_a) : "absent",
             dir.run.shard ? std::to_string(count_b) : "absent");
    if (problem_keys(first) == problem_keys(dir) &&
        field(first.run.doc, "problem_set") != field(dir.run.doc, "problem_set"))
      refuse(first, dir, "problem_set", results::setting_text(field(first.run.doc, "problem_set")),
             results::setting_text(field(dir.run.doc, "problem_set")));
    const std::string label = dir.run.shard_label();
    if (label.empty()) continue;
    auto [it, inserted] = shard_owner.emplace(label, &dir);
    if (!inserted)
      throw InputError(dir.name + "/run.json: shard " + label + " again (" + it->second->name +
                       " is shard " + label + " too): each shard is merged once");
  }
}

void check_no_duplicates(const std::vector<ShardDir>& dirs) {
  std::map<std::tuple<std::string, int, int>, const RawRecord*> seen;
  for (const ShardDir& dir : dirs)
    for (const RawRecord& record : dir.records) {
      auto [it, inserted] = seen.emplace(std::make_tuple(record.problem, record.sample, record.turn), &record);
      if (!inserted)
        throw InputError(record.where + ": duplicate record for " + record.problem + " sample " +
                         std::to_string(record.sample) + " turn " + std::to_string(record.turn) +
                         " (also at " + it->second->where + ")");
    }
}

void check_complete(const std::vector<ShardDir>& dirs) {
  std::set<std::string> problems;
  int samples = 0;
  for (const ShardDir& dir : dirs) {
    for (const auto& key : problem_keys(dir)) problems.insert(key);
    samples = std::max(samples, dir.run.samples_per_problem);
  }
  const auto work = shard::work_list({problems.begin(), problems.end()}, samples);
  std::set<std::pair<std::string, int>> present;
  for (const ShardDir& dir : dirs)
    for (const RawRecord& record : dir.records) present.insert({record.problem, record.sample});

  // Missing samples grouped by the shard that owns them (all in one group for plain runs).
  const int count = dirs.front().run.shard ? dirs.front().run.shard->count : 1;
  const auto owner = shard::owners(work, count);
  std::map<int, std::vector<std::string>> missing;
  std::size_t total = 0;
  for (std::size_t position = 0; position < work.size(); ++position)
    if (!present.count({work[position].problem, work[position].sample})) {
      missing[owner[position]].push_back(work[position].problem + " sample " + std::to_string(work[position].sample));
      ++total;
    }
  if (missing.empty()) return;
  std::string text;
  for (const auto& [index, items] : missing) {
    const ShardDir* holder = nullptr;
    for (const ShardDir& dir : dirs)
      if (count > 1 && dir.run.shard_label() == std::to_string(index) + "/" + std::to_string(count))
        holder = &dir;
    std::string group = count > 1 ? "shard " + std::to_string(index) + "/" + std::to_string(count) : "";
    if (count > 1 && !holder) group += " (no directory given)";
    if (holder) group += " in " + holder->name + (finished(*holder) ? "" : " (not finished)");
    if (count == 1) {
      for (const ShardDir& dir : dirs)
        if (!finished(dir)) group += (group.empty() ? "" : ", ") + dir.name + " (not finished)";
    }
    std::string list;
    for (std::size_t item = 0; item < items.size() && item < 5; ++item) list += (item ? ", " : "") + items[item];
    if (items.size() > 5) list += " and " + std::to_string(items.size() - 5) + " more";
    text += (text.empty() ? "" : "; ") + (group.empty() ? list : group + ": " + list);
  }
  throw InputError(std::to_string(total) + " of " + std::to_string(work.size()) +
                   " samples are missing: " + text + "; finish those shards (pkb run --resume, or the same pkb evaluate) and merge again");
}

}  // namespace pkb::merge
