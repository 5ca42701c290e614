// Scoring by refinement turn (issue 9): the pool folded to the records of the first t answers,
// for t = 1..T, each scored like the whole run but without intervals.
#pragma once

#include <vector>

#include "src/score/merge.h"
#include "src/score/score.h"

namespace pkb::score {

/// T: the larger of run.json's fingerprint.turns and the highest record turn + 1 (1 for a run
/// without turns). Throws InputError when fingerprint.turns is present but not an integer >= 1.
int turn_count(const Pool& pool);

/// The pool as it stood after `turn` answers: only the records with turn < `turn`; the problem
/// list and categories are kept, so a problem without such records is empty, not gone.
Pool pool_before_turn(const Pool& pool, int turn);

/// One TurnScore per t = 1..`turns`, at `ks` and settings.ps. Turn `turns` uses every record,
/// so its values are the whole run's point values.
std::vector<TurnScore> score_turns(const Pool& pool, int turns, const std::vector<int>& ks,
                                   const ScoreSettings& settings);

}  // namespace pkb::score
