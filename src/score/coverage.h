// The fair-comparison rule shared by `pkb leaderboard` and `pkb score` (docs/RESULTS.md,
// "Leaderboard"): runs are compared or pooled only over the same problems. A run's judged problems
// are those where the means run (a scored sample with a known verdict); a set of runs is measured
// against the union of what they judged, and a run that lacks some of it is kept apart (unranked on
// the leaderboard, left out of a mixed `pkb score`), listed with what it lacks.
#pragma once

#include <string>
#include <vector>

#include "src/score/merge.h"
#include "src/score/tally.h"

namespace pkb::score {

/// The problems of `tallies` with a scored sample and a known verdict (n > 0, not unknown): the
/// ones pass@k and fast_p@k average over. In `tallies` order.
std::vector<std::string> judged_problems(const std::vector<ProblemTally>& tallies);

/// One run's coverage of a set of runs' union.
struct Coverage {
  std::vector<std::string> judged;   // this run's judged problems
  std::vector<std::string> lacking;  // of the union, those this run did not judge
  bool complete() const { return lacking.empty(); }
};

/// The union of `judged` (each run's judged problems), ordered by problem key, and each run's
/// coverage of it.
struct CoverageSet {
  std::vector<std::string> problems;  // the union
  std::vector<Coverage> runs;         // in `judged` order
};
CoverageSet cover(const std::vector<std::vector<std::string>>& judged);

/// Problem keys as short text: numbered keys ("041_rmsnorm") as ranges of their numbers
/// ("041-087, 090"), other keys by name; past `max_items` items, "and N more".
std::string problems_text(const std::vector<std::string>& problems, std::size_t max_items = 12);

/// `pkb score --allow-mixed`: the pool's runs of different settings are compared over one problem
/// set, so a run (all inputs of equal settings) that lacks problems another judged is left out of
/// the pool, and a note per run left out says what it lacks. Pools of one setting are returned as
/// they are. Throws InputError when no run judged every problem of the union.
Pool keep_complete_runs(Pool pool, std::vector<std::string>& notes);

}  // namespace pkb::score
