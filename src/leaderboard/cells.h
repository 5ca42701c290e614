// How a number is shown in both renderers: "0.50 [0.25-0.75]", "-" for null, "not executed" when
// no problem behind it was judged, "not timed" for speed metrics of simulated verdicts.
#pragma once

#include <string>

#include "src/score/score.h"

namespace pkb::leaderboard {

std::string value_text(const std::optional<double>& value, int decimals = 2);

/// The value with its interval, or a reason for null.
std::string cell_text(const score::GroupScore& group, const std::string& metric);

/// A run-level metric after each turn: "0.25 → 0.62 → 0.75" ("-" for a turn where it is null).
std::string turn_series_text(const score::Score& score, const std::string& metric);

/// A problem's correct count, or why it is unknown.
std::string correct_text(const score::ProblemTally& tally);

/// A per-category cell: "pass@1 / fast_1@1" values, or pass@1 alone where nothing was timed.
std::string category_text(const score::GroupScore& category, bool timed);
/// Its table's title: "Per category (pass@1 / fast_1@1)", or "Per category (pass@1)".
std::string category_heading(bool timed);

/// Human column heads: "pass@1", "fast_1@4", "geomean speedup".
std::string metric_label(const std::string& metric);

}  // namespace pkb::leaderboard
