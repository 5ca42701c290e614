// Cell text shared by leaderboard.md and index.html.
#include "src/leaderboard/cells.h"

#include <cstdio>

namespace pkb::leaderboard {
namespace {

constexpr const char* kTurnArrow = " \xe2\x86\x92 ";  // U+2192 in UTF-8, the charset of both pages

}  // namespace

std::string value_text(const std::optional<double>& value, int decimals) {
  if (!value) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, *value);
  return text;
}

std::string cell_text(const score::GroupScore& group, const std::string& metric) {
  const score::Estimate* estimate = group.find(metric);
  if (!estimate || !estimate->value) {
    if (metric != "geomean_speedup" && group.problems_unknown > 0 && group.problems_scored == 0)
      return group.statuses.count("compiled") ? "not executed" : "not evaluated";
    // Verdicts of the simulated node: correct or not, never how fast.
    if (metric.rfind("pass@", 0) != 0 && group.simulated_records > 0 && group.timed_samples == 0) return "not timed";
    return "-";
  }
  std::string text = value_text(estimate->value);
  if (estimate->low) text += " [" + value_text(estimate->low) + "-" + value_text(estimate->high) + "]";
  return text;
}

std::string turn_series_text(const score::Score& score, const std::string& metric) {
  std::string text;
  for (const auto& row : score.per_turn) {
    const score::Estimate* estimate = row.group.find(metric);
    text += text.empty() ? "" : kTurnArrow;
    text += value_text(estimate ? estimate->value : std::nullopt);
  }
  return text;
}

std::string correct_text(const score::ProblemTally& tally) {
  if (!tally.unknown) return std::to_string(tally.c);
  return tally.statuses.count("compiled") ? "not executed (no verdict)" : "not evaluated";
}

std::string category_text(const score::GroupScore& category, const bool timed) {
  const score::Estimate* pass = category.find("pass@1");
  std::string text = value_text(pass ? pass->value : std::nullopt);
  if (!timed) return text;
  const score::Estimate* fast = category.find(score::fast_name(1, 1));
  return text + " / " + value_text(fast ? fast->value : std::nullopt);
}

std::string category_heading(bool timed) {
  return timed ? "Per category (pass@1 / fast_1@1)" : "Per category (pass@1)";
}

std::string metric_label(const std::string& metric) {
  if (metric == "geomean_speedup") return "geomean speedup";
  if (metric == "median_sol_fraction") return "median SOL fraction";
  return metric;
}

}  // namespace pkb::leaderboard
