// Field readers for sample records (see record_fields.h).
#include "src/feedback/record_fields.h"

#include <cmath>
#include <cstdio>

namespace pkb::feedback {

std::string text_field(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto found = object.find(key);
  if (found == object.end() || !found->is_string()) return "";
  return found->get<std::string>();
}

std::optional<double> number_field(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

bool flag_field(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return false;
  const auto found = object.find(key);
  return found != object.end() && found->is_boolean() && found->get<bool>();
}

const nlohmann::json& object_field(const nlohmann::json& object, const char* key) {
  static const nlohmann::json kEmpty = nlohmann::json::object();
  if (!object.is_object()) return kEmpty;
  const auto found = object.find(key);
  if (found == object.end() || !found->is_object()) return kEmpty;
  return *found;
}

std::string number_text(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // Below 2^53 an integral double prints exactly; counts such as mismatches stay whole.
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0)
    return std::to_string(static_cast<std::int64_t>(value));
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

std::string number_or(const nlohmann::json& object, const char* key, const std::string& missing) {
  const auto value = number_field(object, key);
  return value ? number_text(*value) : missing;
}

}  // namespace pkb::feedback
