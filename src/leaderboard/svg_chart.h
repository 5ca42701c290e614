// The leaderboard's charts as inline SVG (no scripts): fast_p@1 against p, and pass@1 and
// fast_1@1 against the refinement turn; one colour per model.
#pragma once

#include <string>
#include <vector>

#include "src/leaderboard/leaderboard.h"

namespace pkb::leaderboard {

/// An <svg> element; model names in the legend and titles are escaped.
std::string fast_p_chart(const Group& group, const std::vector<double>& ps);

/// pass@1 (solid) and fast_1@1 (dashed) after each turn, for a group with refinement turns.
std::string turn_chart(const Group& group);

/// The colour of the entry at `index` in the chart and legend.
const char* series_colour(std::size_t index);

}  // namespace pkb::leaderboard
