// Reading one samples.jsonl line strictly: a field of the wrong type is an error naming the line,
// never a silent default, because a score built on misread records would look valid.
#include "src/results/sample_record.h"

#include <algorithm>

#include "src/common/error.h"
#include "src/results/sample_status.h"

namespace pkb::results {
namespace {

std::string type_of(const nlohmann::json& value) {
  return value.is_null() ? "null" : value.dump().substr(0, 40);
}

const nlohmann::json* field(const nlohmann::json& obj, const char* name) {
  auto it = obj.find(name);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

std::optional<double> number_at(const nlohmann::json& obj, const char* name,
                                const std::string& where) {
  const nlohmann::json* value = field(obj, name);
  if (!value) return std::nullopt;
  if (!value->is_number()) throw InputError(where, name, "a number or null", type_of(*value));
  return value->get<double>();
}

bool bool_at(const nlohmann::json& obj, const char* name, const std::string& where) {
  const nlohmann::json* value = field(obj, name);
  if (!value) return false;
  if (!value->is_boolean()) throw InputError(where, name, "true or false", type_of(*value));
  return value->get<bool>();
}

std::string string_at(const nlohmann::json& obj, const char* name, const std::string& where) {
  const nlohmann::json* value = field(obj, name);
  if (!value || !value->is_string() || value->get<std::string>().empty())
    throw InputError(where, name, "a non-empty string", value ? type_of(*value) : "nothing");
  return value->get<std::string>();
}

int index_at(const nlohmann::json& obj, const char* name, const std::string& where,
             bool required) {
  const nlohmann::json* value = field(obj, name);
  if (!value && !required) return 0;
  if (!value || !value->is_number_integer() || value->get<long long>() < 0 ||
      value->get<long long>() > 1000000)
    throw InputError(where, name, "an integer >= 0", value ? type_of(*value) : "nothing");
  return value->get<int>();
}

}  // namespace

const std::vector<std::string>& known_statuses() {
  static const std::vector<std::string> statuses = [] {
    std::vector<std::string> names;
    for (const auto status : all_statuses()) names.emplace_back(status_name(status));
    names.emplace_back("generated");  // a generation record: answered, not judged
    return names;
  }();
  return statuses;
}

void check_schema_version(const nlohmann::json& doc, const std::string& where) {
  const nlohmann::json* version = field(doc, "schema_version");
  if (!version || !version->is_number_integer() || version->get<long long>() < 1)
    throw InputError(where, "schema_version", "an integer >= 1",
                     version ? type_of(*version) : "nothing");
  if (version->get<long long>() > kMaxSchemaVersion)
    throw InputError(where + ": schema_version " + std::to_string(version->get<long long>()) +
                     " is newer than this pkb understands (max " +
                     std::to_string(kMaxSchemaVersion) + ")");
}

SampleRecord parse_sample_record(const nlohmann::json& line, const std::string& file,
                                 int line_no) {
  const std::string where = file + ":" + std::to_string(line_no);
  if (!line.is_object()) throw InputError(where + ": expected a JSON object, got " + type_of(line));
  check_schema_version(line, where);
  SampleRecord record;
  record.file = file;
  record.line = line_no;
  record.problem = string_at(line, "problem", where);
  record.sample = index_at(line, "sample", where, true);
  record.turn = index_at(line, "turn", where, false);
  record.status = string_at(line, "status", where);
  const auto& statuses = known_statuses();
  if (std::find(statuses.begin(), statuses.end(), record.status) == statuses.end()) {
    std::string all;
    for (const auto& name : statuses) all += (all.empty() ? "" : ", ") + name;
    throw InputError(where, "status", "one of " + all, "\"" + record.status + "\"");
  }
  if (const nlohmann::json* category = field(line, "category"))
    record.category = category->is_string() ? category->get<std::string>() : "";
  record.speedup = number_at(line, "speedup", where);
  if (record.speedup && !(*record.speedup > 0))
    throw InputError(where, "speedup", "a positive number or null", type_of(line["speedup"]));
  if (const nlohmann::json* timing = field(line, "timing")) {
    if (!timing->is_object()) throw InputError(where, "timing", "an object or null", type_of(*timing));
    record.emulated = bool_at(*timing, "emulated", where + ": timing");
    // The worker's own bound, in records written before src/sol judged the speed of light alone.
    record.flagged = bool_at(*timing, "sol_flag", where + ": timing");
  }
  record.flagged = record.flagged || bool_at(line, "suspicious_fast", where);
  record.sol_fraction = number_at(line, "sol_fraction", where);
  if (const nlohmann::json* usage = field(line, "usage")) {
    if (!usage->is_object()) throw InputError(where, "usage", "an object or null", type_of(*usage));
    record.output_tokens = number_at(*usage, "output_tokens", where + ": usage");
  }
  record.latency_s = number_at(line, "latency_s", where);
  return record;
}

}  // namespace pkb::results
