// The models x problems map: an inline SVG per (hardware, W) table with a row per model (in the
// table's order) and a column per problem grouped by category, each cell coloured by the best
// status of its samples and, on timed tables, correct cells shaded by the best speedup; each
// cell's <title> names the problem, status, samples and speedup. Sized for 10 models x 87
// problems inside 1200 px; long model names wrap.
#pragma once

#include <string>
#include <vector>

#include "src/leaderboard/leaderboard.h"

namespace pkb::leaderboard {

/// The map's columns: every problem some row's run lists, by category, then key.
std::vector<std::pair<std::string, std::string>> map_columns(const Group& group);  // (category, problem)

/// The best status of a problem's records: correct, incorrect, runtime_error, timeout, plan_error,
/// compile_error, format_error, "not executed" (compiled or generated only) or "not run".
std::string best_status(const score::ProblemTally* tally);

/// `text` cut into lines of at most `max_chars`, after a ':', '-', '_', '/', '.' or space where
/// one lies in the line's second half.
std::vector<std::string> wrap_label(const std::string& text, std::size_t max_chars);

/// <svg class="problem-map" id="`id`">, with its legend.
std::string problem_map(const Group& group, const std::string& id);

}  // namespace pkb::leaderboard
