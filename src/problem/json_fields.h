// Reading a JSON object field by field, with errors that name the file and the field path
// ("problems/001_allreduce/problem.json: inputs[0].dtype: expected ..., got ...").
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pkb::problem {

class JsonFields {
 public:
  JsonFields(const nlohmann::json& value, std::string file, std::string path);

  bool has(const std::string& key) const;
  JsonFields child(const std::string& key) const;           // required object or array
  JsonFields element(std::size_t index) const;              // array element
  std::size_t size() const;                                 // array length
  std::string string(const std::string& key) const;         // required, non-empty
  std::string string_or(const std::string& key, const std::string& fallback) const;
  std::int64_t integer(const std::string& key) const;
  double number(const std::string& key) const;
  bool boolean_or(const std::string& key, bool fallback) const;
  std::vector<std::string> keys() const;
  const nlohmann::json& raw() const { return value_; }
  std::string field(const std::string& key) const;  // "inputs[0].dtype"
  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }

  /// Throws for a key outside `allowed`, suggesting the closest allowed one.
  void reject_unknown(const std::set<std::string>& allowed) const;
  [[noreturn]] void fail(const std::string& key, const std::string& expected,
                         const std::string& got) const;

  static std::string describe(const nlohmann::json& value);  // for "got ...": the value, shortened

 private:
  const nlohmann::json& get(const std::string& key) const;
  const nlohmann::json& value_;
  std::string file_;
  std::string path_;
};

}  // namespace pkb::problem
