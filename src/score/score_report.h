// The three ways `pkb score` prints a Score: a table with '#' header lines, one JSON document, and
// CSV rows. All read the same Score, so they cannot disagree.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/score/score.h"

namespace pkb::score {

enum class Breakdown { none, category, problem };

/// schema_version 1, kind "score": settings, inputs, notes, skipped records, overall, categories,
/// problems (each with n, c, f_p and point estimates).
nlohmann::json score_to_json(const Score& score);

std::string score_table(const Score& score, Breakdown by);

/// One row per group (all, then each category or problem): group, problems, samples, then each
/// metric as value, low, high. Empty cells for nulls.
std::string score_csv(const Score& score, Breakdown by);

/// A problem's point estimate of `pass@k` / `fast_p@k` (null when unknown, empty or k > n).
std::optional<double> problem_at_k(const ProblemTally& tally, int good, int k);

/// The per-problem value of each metric in metric order as Score.overall names them (intervals
/// null), so per-problem rows print like group rows.
GroupScore problem_group(const Score& score, const ProblemTally& tally);

}  // namespace pkb::score
