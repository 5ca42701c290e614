// RunInfo (see run_info.h).
#include "src/results/run_info.h"

#include <set>

#include "src/common/error.h"
#include "src/results/run_file.h"

namespace pkb::results {
namespace {

nlohmann::json field(const nlohmann::json& doc, const std::string& name) {
  const auto it = doc.find(name);
  return it == doc.end() ? nlohmann::json() : *it;
}

std::string text(const nlohmann::json& doc, const std::string& name) {
  const nlohmann::json value = field(doc, name);
  return value.is_string() ? value.get<std::string>() : "";
}

}  // namespace

std::string setting_text(const nlohmann::json& value) {
  return value.is_null() ? "absent" : value.dump();
}

nlohmann::json to_json(const RunProblem& problem) {
  nlohmann::json doc = {{"key", problem.key},
                        {"world", problem.world},
                        {"dtype", problem.dtype},
                        {"prompt_sha256", problem.prompt_sha256}};
  if (problem.id > 0) doc["id"] = problem.id;
  if (!problem.category.empty()) doc["category"] = problem.category;
  return doc;
}

nlohmann::json to_json(const std::vector<RunProblem>& problems) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& problem : problems) list.push_back(to_json(problem));
  return list;
}

std::string RunInfo::shard_label() const {
  return shard ? std::to_string(shard->index) + "/" + std::to_string(shard->count) : "";
}

RunInfo run_info_from(nlohmann::json doc, const std::string& where) {
  RunInfo info;
  const nlohmann::json version = field(doc, "schema_version");
  info.schema_version = version.is_number_integer() ? version.get<int>() : 0;
  info.kind = text(doc, "kind");
  info.hardware_key = text(doc, "hardware_key");
  if (const nlohmann::json fingerprint = field(doc, "fingerprint"); fingerprint.is_object())
    info.fingerprint = fingerprint;
  const nlohmann::json problems = field(doc, "problems");
  if (!problems.is_null() && !problems.is_array())
    throw InputError(where, "problems", "an array", problems.dump());
  for (const auto& problem : problems.is_array() ? problems : nlohmann::json::array()) {
    if (!problem.is_object() || !problem.contains("key") || !problem["key"].is_string())
      throw InputError(where, "problems[]", "objects with a string key", problem.dump());
    const nlohmann::json id = field(problem, "id"), world = field(problem, "world");
    info.problems.push_back({problem["key"].get<std::string>(), text(problem, "category"),
                             id.is_number_integer() ? id.get<int>() : 0,
                             world.is_number_integer() ? world.get<int>() : 0,
                             text(problem, "dtype"), text(problem, "prompt_sha256")});
  }
  const nlohmann::json samples = field(info.fingerprint, "samples");
  const nlohmann::json old_samples = field(doc, "samples_per_problem");
  info.samples_per_problem = samples.is_number_integer()       ? samples.get<int>()
                             : old_samples.is_number_integer() ? old_samples.get<int>()
                                                               : 0;
  if (const nlohmann::json shard = field(doc, "shard"); !shard.is_null()) {
    if (!shard.is_object()) throw InputError(where, "shard", "an object", shard.dump());
    info.shard = RunShard{shard.value("index", -1), shard.value("count", 0)};
  }
  info.finished = doc.contains("finished");
  info.cancelled = field(doc, "summary").is_object() && doc["summary"].value("cancelled", false);
  info.doc = std::move(doc);
  return info;
}

RunInfo read_run_info(const std::filesystem::path& dir) {
  return run_info_from(read_run_file(dir), (dir / "run.json").string());
}

std::optional<RunInfo> read_run_info_if_any(const std::filesystem::path& dir) {
  try {
    return read_run_info(dir);
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::optional<SettingDifference> fingerprint_difference(const nlohmann::json& first,
                                                        const nlohmann::json& other) {
  std::set<std::string> names;
  for (const auto& item : first.items()) names.insert(item.key());
  for (const auto& item : other.items()) names.insert(item.key());
  for (const auto& name : names) {
    const nlohmann::json a = field(first, name), b = field(other, name);
    if (a != b) return SettingDifference{name, setting_text(a), setting_text(b)};
  }
  return std::nullopt;
}

std::optional<SettingDifference> first_difference(const RunInfo& first, const RunInfo& other) {
  if (auto difference = fingerprint_difference(first.fingerprint, other.fingerprint)) {
    difference->field = "fingerprint." + difference->field;
    return difference;
  }
  const auto shown = [](const std::string& key) {
    return key.empty() ? setting_text(nullptr) : setting_text(key);
  };
  if (first.hardware_key != other.hardware_key)
    return SettingDifference{"hardware_key", shown(first.hardware_key), shown(other.hardware_key)};
  return std::nullopt;
}

}  // namespace pkb::results
