// Typed reads of single record fields (docs/RESULTS.md) that never throw: a field that is missing,
// null or of another type reads as empty, because feedback must be built from any record written
// by any schema-2 pkb, older ones included.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace pkb::feedback {

/// The string at `key`, or "" when it is missing or not a string.
std::string text_field(const nlohmann::json& object, const char* key);

/// The number at `key`, or nothing when it is missing, null or not a number.
std::optional<double> number_field(const nlohmann::json& object, const char* key);

/// The bool at `key`, false unless it is the JSON value true.
bool flag_field(const nlohmann::json& object, const char* key);

/// The object at `key`, or an empty object (never null), so reads can chain.
const nlohmann::json& object_field(const nlohmann::json& object, const char* key);

/// A number for people: integers in full (1048576), others with four significant digits.
std::string number_text(double value);

/// number_text of the field, or `missing` when there is no number.
std::string number_or(const nlohmann::json& object, const char* key, const std::string& missing);

}  // namespace pkb::feedback
