// Wording of the fair-ranking rule and of each table's problem set (ranking_text.h).
#include "src/leaderboard/ranking_text.h"

namespace pkb::leaderboard {

std::string fair_ranking_rule() {
  return "Rows are ranked fairly: a table ranks on every problem some row in it judged (a scored "
         "sample with a verdict), and only rows that judged all of them are ranked; a row that lacks "
         "some (a partial run, --problems 1-40) is listed below as unranked, with what it lacks, "
         "because its means run over other problems. The problems column gives judged / the table's "
         "set.";
}

std::string ranking_sentence(const Group& group, std::string (*escape)(const std::string&)) {
  const std::size_t ranked = ranked_count(group), unranked = group.entries.size() - ranked;
  if (group.problems.empty())
    return "No problem has a verdict in this table (nothing was executed), so no row is ranked.";
  std::string text = "Ranks on " + std::to_string(group.problems.size()) + " problems (" +
                     escape(score::problems_text(group.problems)) + "): every problem a row judged.";
  if (unranked > 0)
    text += " " + std::to_string(unranked) + (unranked == 1 ? " row lacks" : " rows lack") +
            " some of them and " + (unranked == 1 ? "is" : "are") + " listed unranked, below.";
  if (ranked == 0) text += " No row judged them all, so none is ranked.";
  return text;
}

std::string listed_problems_sentence(const Entry& entry) {
  int with_samples = 0;
  for (const auto& tally : entry.score.problems) with_samples += !tally.statuses.empty();
  const int without = static_cast<int>(entry.score.problems.size()) - with_samples;
  std::string text = "Lists the " + std::to_string(with_samples) + " problems with samples";
  if (without > 0) text += "; " + std::to_string(without) + " of the run's problems have none and are not listed";
  return text + ".";
}

std::string map_sentence(const Group& group) {
  std::string text =
      "A row per model (in the table's order), a column per problem grouped by category; each cell "
      "is coloured by the best status of its samples, and white where the row has no sample.";
  if (group_timed(group))
    text += " Correct cells are shaded by the best speedup against the baseline: the darker, the faster.";
  return text + " Hover a cell for its problem, status, samples and speedup.";
}

}  // namespace pkb::leaderboard
