// The correctness table of an incorrect record: one row per checked trial (its worst output tensor
// and rank) with error sizes and counts only. Values of the outputs, expected or actual, are never
// read: the columns come from a fixed list of trial fields.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace pkb::feedback {

/// `trials`: record.eval.trials. A fixed-width table, "" when there is no trial.
std::string trial_table(const nlohmann::json& trials);

}  // namespace pkb::feedback
