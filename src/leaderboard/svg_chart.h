// The fast_p chart: fast_p@1 against p, one polyline per model, as inline SVG (no scripts).
#pragma once

#include <string>
#include <vector>

#include "src/leaderboard/leaderboard.h"

namespace pkb::leaderboard {

/// An <svg> element; model names in the legend and titles are escaped.
std::string fast_p_chart(const Group& group, const std::vector<double>& ps);

/// The colour of the entry at `index` in the chart and legend.
const char* series_colour(std::size_t index);

}  // namespace pkb::leaderboard
