// trial_table: columns sized to their widest cell, so the table reads in a monospace prompt.
#include "src/feedback/trial_table.h"

#include <algorithm>
#include <array>
#include <vector>

#include "src/feedback/record_fields.h"
#include "src/feedback/redact.h"

namespace pkb::feedback {
namespace {

constexpr std::size_t kMaxRows = 16;       // trials per record are ~5; more is a worker change
constexpr std::size_t kMaxNameChars = 40;  // a tensor name is short; a long one is clipped

using Row = std::array<std::string, 10>;

const Row kHeader = {"trial",       "tensor",      "rank",        "result",     "skewed",
                     "max_abs_err", "max_rel_err", "error_ratio", "mismatches", "first_bad_index"};

// An int (flat index, -1 for none: docs/RESULTS.md) or a list of coordinates (the worker's form).
std::string index_text(const nlohmann::json& trial) {
  const auto found = trial.find("first_bad_index");
  if (found == trial.end()) return "-";
  if (found->is_number_integer()) {
    const auto index = found->get<std::int64_t>();
    return index < 0 ? "-" : std::to_string(index);
  }
  if (!found->is_array() || found->empty()) return "-";
  std::string text = "[";
  for (const auto& coordinate : *found) {
    if (!coordinate.is_number_integer()) return "-";
    text += (text.size() > 1 ? ", " : "") + std::to_string(coordinate.get<std::int64_t>());
  }
  return text + "]";
}

Row row_of(const nlohmann::json& trial, std::size_t index) {
  return {std::to_string(index + 1),
          clip_line(text_field(trial, "tensor"), kMaxNameChars),
          number_or(trial, "rank", "-"),
          flag_field(trial, "passed") ? "pass" : "FAIL",
          flag_field(trial, "skewed") ? "yes" : "no",
          number_or(trial, "max_abs_err", "-"),
          number_or(trial, "max_rel_err", "-"),
          number_or(trial, "error_ratio", "-"),
          number_or(trial, "mismatches", "-"),
          index_text(trial)};
}

}  // namespace

std::string trial_table(const nlohmann::json& trials) {
  if (!trials.is_array() || trials.empty()) return "";
  std::vector<Row> rows = {kHeader};
  for (std::size_t index = 0; index < trials.size() && index < kMaxRows; ++index)
    if (trials[index].is_object()) rows.push_back(row_of(trials[index], index));
  std::array<std::size_t, kHeader.size()> widths{};
  for (const auto& row : rows)
    for (std::size_t column = 0; column < row.size(); ++column)
      widths[column] = std::max(widths[column], row[column].size());
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t column = 0; column < row.size(); ++column) {
      line += row[column];
      if (column + 1 < row.size())
        line += std::string(widths[column] - row[column].size() + 2, ' ');
    }
    out += line + "\n";
  }
  if (trials.size() > kMaxRows)
    out += "(" + std::to_string(trials.size() - kMaxRows) + " more trials not shown)\n";
  return out;
}

}  // namespace pkb::feedback
