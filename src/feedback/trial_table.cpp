// trial_table: columns sized to their widest cell, so the table reads in a monospace prompt.
#include "src/feedback/trial_table.h"

#include <algorithm>
#include <array>
#include <vector>

#include "src/feedback/number_text.h"
#include "src/feedback/redact.h"

namespace pkb::feedback {
namespace {

constexpr std::size_t kMaxRows = 16;       // trials per record are ~5; more is a worker change
constexpr std::size_t kMaxNameChars = 40;  // a tensor name is short; a long one is clipped

using Row = std::vector<std::string>;

const Row kHeader = {"trial",       "tensor",      "rank",        "result",     "skewed",
                     "max_abs_err", "max_rel_err", "error_ratio", "mismatches", "first_bad_index"};

// A flat index, or a list of coordinates (the worker's form); "-" for none.
std::string index_text(const std::vector<std::int64_t>& index, bool coordinates) {
  if (index.empty()) return "-";
  if (!coordinates) return std::to_string(index[0]);
  std::string text = "[";
  for (const auto coordinate : index)
    text += (text.size() > 1 ? ", " : "") + std::to_string(coordinate);
  return text + "]";
}

Row row_of(const results::TrialResult& trial, std::size_t index) {
  return {std::to_string(index + 1),
          clip_line(trial.tensor, kMaxNameChars),
          number_or(trial.rank, "-"),
          trial.passed ? "pass" : "FAIL",
          trial.skewed ? "yes" : "no",
          number_or(trial.max_abs_err, "-"),
          number_or(trial.max_rel_err, "-"),
          number_or(trial.error_ratio, "-"),
          number_or(trial.mismatches, "-"),
          index_text(trial.first_bad_index, trial.first_bad_is_coordinates)};
}

}  // namespace

std::string trial_table(const std::vector<results::TrialResult>& trials) {
  if (trials.empty()) return "";
  // The sizes each trial ran at, after its number, once records carry them.
  const bool shapes = std::any_of(trials.begin(), trials.end(),
                                  [](const results::TrialResult& trial) { return !trial.shape.empty(); });
  std::vector<Row> rows = {kHeader};
  if (shapes) rows.front().insert(rows.front().begin() + 1, "shape");
  for (std::size_t index = 0; index < trials.size() && index < kMaxRows; ++index) {
    rows.push_back(row_of(trials[index], index));
    if (shapes) rows.back().insert(rows.back().begin() + 1, trials[index].shape.empty() ? "-" : trials[index].shape);
  }
  std::vector<std::size_t> widths(rows.front().size(), 0);
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
