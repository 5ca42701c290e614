// JsonFields: typed access with located errors.
#include "src/problem/json_fields.h"

#include "src/common/did_you_mean.h"
#include "src/common/error.h"

namespace pkb::problem {

JsonFields::JsonFields(const nlohmann::json& value, std::string file, std::string path)
    : value_(value), file_(std::move(file)), path_(std::move(path)) {}

std::string JsonFields::field(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

std::string JsonFields::describe(const nlohmann::json& value) {
  std::string text = value.dump();
  constexpr std::size_t kMaxShown = 40;
  if (text.size() > kMaxShown) text = text.substr(0, kMaxShown) + "...";
  return text;
}

void JsonFields::fail(const std::string& key, const std::string& expected,
                      const std::string& got) const {
  throw InputError(file_, key.empty() ? path_ : field(key), expected, got);
}

bool JsonFields::has(const std::string& key) const {
  return value_.is_object() && value_.contains(key);
}

const nlohmann::json& JsonFields::get(const std::string& key) const {
  if (!has(key)) fail(key, "a value", "nothing (the field is missing)");
  return value_.at(key);
}

JsonFields JsonFields::child(const std::string& key) const {
  const auto& value = get(key);
  if (!value.is_object() && !value.is_array()) fail(key, "an object or array", describe(value));
  return JsonFields(value, file_, field(key));
}

JsonFields JsonFields::element(std::size_t index) const {
  return JsonFields(value_.at(index), file_, path_ + "[" + std::to_string(index) + "]");
}

std::size_t JsonFields::size() const { return value_.is_array() ? value_.size() : 0; }

std::string JsonFields::string(const std::string& key) const {
  const auto& value = get(key);
  if (!value.is_string() || value.get<std::string>().empty())
    fail(key, "a non-empty string", describe(value));
  return value.get<std::string>();
}

std::string JsonFields::string_or(const std::string& key, const std::string& fallback) const {
  if (!has(key)) return fallback;
  const auto& value = value_.at(key);
  if (!value.is_string()) fail(key, "a string", describe(value));
  return value.get<std::string>();
}

std::int64_t JsonFields::integer(const std::string& key) const {
  const auto& value = get(key);
  if (!value.is_number_integer()) fail(key, "an integer", describe(value));
  return value.get<std::int64_t>();
}

double JsonFields::number(const std::string& key) const {
  const auto& value = get(key);
  if (!value.is_number()) fail(key, "a number", describe(value));
  return value.get<double>();
}

bool JsonFields::boolean_or(const std::string& key, bool fallback) const {
  if (!has(key)) return fallback;
  const auto& value = value_.at(key);
  if (!value.is_boolean()) fail(key, "true or false", describe(value));
  return value.get<bool>();
}

std::vector<std::string> JsonFields::keys() const {
  std::vector<std::string> out;
  if (value_.is_object())
    for (const auto& item : value_.items()) out.push_back(item.key());
  return out;
}

void JsonFields::reject_unknown(const std::set<std::string>& allowed) const {
  for (const auto& key : keys()) {
    if (allowed.count(key)) continue;
    std::string expected = "one of the known fields";
    if (auto near = closest_match(key, {allowed.begin(), allowed.end()}))
      expected = "a known field (did you mean '" + *near + "'?)";
    fail(key, expected, "unknown field '" + key + "'");
  }
}

}  // namespace pkb::problem
