// Names of SampleStatus.
#include "src/results/sample_status.h"

#include <array>
#include <utility>

namespace pkb::results {
namespace {

constexpr std::array<std::pair<SampleStatus, std::string_view>, 9> kNames = {{
    {SampleStatus::api_error, "api_error"},
    {SampleStatus::format_error, "format_error"},
    {SampleStatus::compile_error, "compile_error"},
    {SampleStatus::plan_error, "plan_error"},
    {SampleStatus::runtime_error, "runtime_error"},
    {SampleStatus::timeout, "timeout"},
    {SampleStatus::incorrect, "incorrect"},
    {SampleStatus::correct, "correct"},
    {SampleStatus::compiled, "compiled"},
}};

}  // namespace

const std::vector<SampleStatus>& all_statuses() {
  static const std::vector<SampleStatus> statuses = [] {
    std::vector<SampleStatus> all;
    for (const auto& [value, name] : kNames) all.push_back(value);
    return all;
  }();
  return statuses;
}

std::string_view status_name(SampleStatus status) {
  for (const auto& [value, name] : kNames)
    if (value == status) return name;
  return "?";
}

std::optional<SampleStatus> parse_status(std::string_view name) {
  for (const auto& [value, text] : kNames)
    if (text == name) return value;
  return std::nullopt;
}

}  // namespace pkb::results
