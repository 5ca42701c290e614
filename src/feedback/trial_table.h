// The correctness table of an incorrect record: one row per checked trial (its worst output tensor
// and rank) with error sizes and counts only. Values of the outputs, expected or actual, are never
// read: the columns come from a fixed list of trial fields.
#pragma once

#include <string>
#include <vector>

#include "src/results/record.h"

namespace pkb::feedback {

/// `trials`: the record's eval.trials. A fixed-width table, "" when there is no trial.
std::string trial_table(const std::vector<results::TrialResult>& trials);

}  // namespace pkb::feedback
