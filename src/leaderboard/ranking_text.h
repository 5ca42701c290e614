// The sentences both renderers print about what a table ranks on and what its parts show, so that
// leaderboard.md and index.html state the same rule (docs/RESULTS.md, "Leaderboard").
#pragma once

#include <string>

#include "src/leaderboard/leaderboard.h"

namespace pkb::leaderboard {

/// The fair-ranking rule, once per page.
std::string fair_ranking_rule();

/// Above a table: the problems it ranks on, and how many rows are unranked for lacking some. The
/// problem keys come from results: `escape` (html_escape, markdown_escape) is applied to them.
std::string ranking_sentence(const Group& group, std::string (*escape)(const std::string&));

/// Above a row's per-problem table: which of its problems are listed.
std::string listed_problems_sentence(const Entry& entry);

/// Above the models x problems map: what a cell's colour (and shade) means.
std::string map_sentence(const Group& group);

}  // namespace pkb::leaderboard
