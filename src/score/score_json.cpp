// Score as JSON (`pkb score --json`, and what the leaderboard and CI read).
#include <cmath>

#include "src/score/estimator.h"
#include "src/score/score_report.h"

namespace pkb::score {
namespace {

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}

nlohmann::json group_json(const GroupScore& group) {
  nlohmann::json metrics = nlohmann::json::object();
  for (const auto& estimate : group.metrics)
    metrics[estimate.name] = {{"value", optional_json(estimate.value)},
                              {"low", optional_json(estimate.low)},
                              {"high", optional_json(estimate.high)}};
  return {{"name", group.name},
          {"problems", group.problems},
          {"problems_scored", group.problems_scored},
          {"problems_not_executed", group.problems_unknown},
          {"problems_without_samples", group.problems_empty},
          {"samples", group.samples},
          {"timed_samples", group.timed_samples},
          {"simulated_records", group.simulated_records},
          {"statuses", group.statuses},
          {"metrics", metrics}};
}

nlohmann::json fast_counts(const Score& score, const std::vector<int>& fast) {
  nlohmann::json counts = nlohmann::json::object();
  for (std::size_t p = 0; p < score.settings.ps.size(); ++p)
    counts[format_p(score.settings.ps[p])] = fast[p];
  return counts;
}

// One row per turn: counts and the estimators as plain numbers (point estimates, no intervals).
nlohmann::json per_turn_json(const Score& score) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : score.per_turn) {
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto& estimate : row.group.metrics)
      if (is_at_k_metric(estimate.name)) metrics[estimate.name] = optional_json(estimate.value);
    rows.push_back({{"turn", row.turn},
                    {"n", row.group.samples},
                    {"c", row.correct},
                    {"f_p", fast_counts(score, row.fast)},
                    {"problems_scored", row.group.problems_scored},
                    {"metrics", metrics}});
  }
  return rows;
}

// The same numbers as series against the turn, for plotting: {"turns": [1..T], "pass@1": [...]}.
nlohmann::json curve_json(const Score& score) {
  nlohmann::json curve = {{"turns", nlohmann::json::array()}};
  for (const auto& row : score.per_turn) {
    curve["turns"].push_back(row.turn);
    for (const auto& estimate : row.group.metrics)
      if (is_at_k_metric(estimate.name)) curve[estimate.name].push_back(optional_json(estimate.value));
  }
  return curve;
}

}  // namespace

std::optional<double> problem_at_k(const ProblemTally& tally, int good, int k) {
  if (tally.n == 0 || tally.unknown || k > tally.n) return std::nullopt;
  return unbiased_at_k(tally.n, good, k);
}

GroupScore problem_group(const Score& score, const ProblemTally& tally) {
  GroupScore group;
  group.name = tally.problem;
  group.problems = 1;
  group.problems_empty = tally.n == 0;
  group.problems_unknown = tally.n > 0 && tally.unknown;
  group.problems_scored = tally.n > 0 && !tally.unknown;
  group.samples = tally.n;
  group.timed_samples = static_cast<int>(tally.speedups.size());
  group.simulated_records = tally.simulated;
  group.statuses = tally.statuses;
  const bool untimed_simulation = tally.simulated > 0 && tally.speedups.empty();
  for (const auto& overall : score.overall.metrics) {
    Estimate estimate{overall.name, std::nullopt, std::nullopt, std::nullopt};
    for (int k : score.ks) {
      if (overall.name == "pass@" + std::to_string(k)) estimate.value = problem_at_k(tally, tally.c, k);
      for (std::size_t p = 0; p < score.settings.ps.size(); ++p)
        if (overall.name == fast_name(score.settings.ps[p], k) && !untimed_simulation)
          estimate.value = problem_at_k(tally, tally.fast[p], k);
    }
    if (overall.name == "geomean_speedup" && !tally.speedups.empty()) {
      double log_sum = 0;
      for (double speedup : tally.speedups) log_sum += std::log(speedup);
      estimate.value = std::exp(log_sum / static_cast<double>(tally.speedups.size()));
    }
    if (overall.name == "median_sol_fraction") estimate.value = median(tally.sol_fractions);
    if (overall.name == "compile_rate" && tally.with_answer > 0)
      estimate.value = static_cast<double>(tally.past_compile) / tally.with_answer;
    if (overall.name == "format_error_rate" && tally.responses > 0)
      estimate.value = static_cast<double>(tally.format_errors) / tally.responses;
    if (overall.name == "mean_output_tokens" && tally.tokens_count > 0)
      estimate.value = tally.tokens_sum / tally.tokens_count;
    if (overall.name == "mean_latency_s" && tally.latency_count > 0)
      estimate.value = tally.latency_sum / tally.latency_count;
    group.metrics.push_back(estimate);
  }
  return group;
}

nlohmann::json score_to_json(const Score& score) {
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& record : score.pool.skipped)
    skipped.push_back({{"where", record.where}, {"reason", record.reason}});
  nlohmann::json categories = nlohmann::json::array();
  for (const auto& group : score.categories) categories.push_back(group_json(group));
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& tally : score.problems) {
    nlohmann::json row = group_json(problem_group(score, tally));
    row["category"] = tally.category;
    row["n"] = tally.n;
    row["c"] = tally.c;
    row["f_p"] = fast_counts(score, tally.fast);
    row["not_executed"] = tally.n > 0 && tally.unknown;
    problems.push_back(row);
  }
  return {{"schema_version", 1},
          {"kind", "score"},
          {"inputs", score.pool.inputs},
          {"fingerprint", score.pool.fingerprint},
          {"hardware_key", score.pool.hardware_key},
          {"mixed", score.pool.mixed},
          {"settings",
           {{"k", score.ks},
            {"p", score.settings.ps},
            {"seed", score.settings.seed},
            {"bootstrap", score.settings.bootstrap}}},
          {"notes", score.notes},
          {"records_skipped", skipped},
          {"overall", group_json(score.overall)},
          {"categories", categories},
          {"problems", problems},
          {"per_turn", per_turn_json(score)},
          {"curve", curve_json(score)}};
}

}  // namespace pkb::score
