// From tallies to estimates: one function computes every metric for a list of problems (with
// repeats), so the point value and each bootstrap resample go through the same code.
#include "src/score/score.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/common/error.h"
#include "src/score/bootstrap.h"
#include "src/score/coverage.h"
#include "src/score/estimator.h"
#include "src/score/turn_score.h"

namespace pkb::score {
namespace {

std::vector<std::string> metric_names(const std::vector<int>& ks, const std::vector<double>& ps) {
  std::vector<std::string> names;
  for (int k : ks) names.push_back("pass@" + std::to_string(k));
  for (double p : ps)
    for (int k : ks) names.push_back(fast_name(p, k));
  for (const char* name : {"geomean_speedup", "median_sol_fraction", "compile_rate", "format_error_rate",
                           "mean_output_tokens", "mean_latency_s"})
    names.emplace_back(name);
  return names;
}

std::optional<double> ratio(double sum, double count) {
  if (count <= 0) return std::nullopt;
  return sum / count;
}

// Every metric, in metric_names order, over the problems `pick` selects from `tallies`.
std::vector<std::optional<double>> metrics_of(const std::vector<const ProblemTally*>& tallies,
                                              const std::vector<int>& pick,
                                              const std::vector<int>& ks, std::size_t p_count) {
  std::vector<double> pass(ks.size()), fast(p_count * ks.size());
  std::vector<bool> too_few(ks.size());  // a problem has n < k: only possible at an early turn
  double scored = 0, log_sum = 0, timed = 0, past = 0, answers = 0, formats = 0, responses = 0;
  double tokens = 0, token_count = 0, latency = 0, latency_count = 0;
  std::vector<double> fractions;  // every trusted timed sample's fraction of the speed of light
  for (int index : pick) {
    const ProblemTally& tally = *tallies[static_cast<std::size_t>(index)];
    past += tally.past_compile, answers += tally.with_answer;
    formats += tally.format_errors, responses += tally.responses;
    tokens += tally.tokens_sum, token_count += tally.tokens_count;
    latency += tally.latency_sum, latency_count += tally.latency_count;
    for (double speedup : tally.speedups) log_sum += std::log(speedup), ++timed;
    fractions.insert(fractions.end(), tally.sol_fractions.begin(), tally.sol_fractions.end());
    if (tally.n == 0 || tally.unknown) continue;
    ++scored;
    for (std::size_t k = 0; k < ks.size(); ++k) {
      if (ks[k] > tally.n) {
        too_few[k] = true;
        continue;
      }
      pass[k] += unbiased_at_k(tally.n, tally.c, ks[k]);
      for (std::size_t p = 0; p < p_count; ++p)
        fast[p * ks.size() + k] += unbiased_at_k(tally.n, tally.fast[p], ks[k]);
    }
  }
  std::vector<std::optional<double>> out;
  for (std::size_t k = 0; k < ks.size(); ++k)
    out.push_back(too_few[k] ? std::nullopt : ratio(pass[k], scored));
  for (std::size_t slot = 0; slot < fast.size(); ++slot)
    out.push_back(too_few[slot % ks.size()] ? std::nullopt : ratio(fast[slot], scored));
  out.push_back(timed > 0 ? std::optional<double>(std::exp(log_sum / timed)) : std::nullopt);
  out.push_back(median(fractions));
  out.push_back(ratio(past, answers));
  out.push_back(ratio(formats, responses));
  out.push_back(ratio(tokens, token_count));
  out.push_back(ratio(latency, latency_count));
  return out;
}

}  // namespace

GroupScore score_group(const std::string& name, const std::vector<const ProblemTally*>& tallies,
                       const std::vector<int>& ks, const ScoreSettings& settings) {
  GroupScore group;
  group.name = name;
  group.problems = static_cast<int>(tallies.size());
  for (const ProblemTally* tally : tallies) {
    group.problems_empty += tally->n == 0;
    group.problems_unknown += tally->n > 0 && tally->unknown;
    group.problems_scored += tally->n > 0 && !tally->unknown;
    group.samples += tally->n;
    group.timed_samples += static_cast<int>(tally->speedups.size());
    group.simulated_records += tally->simulated;
    for (const auto& [status, count] : tally->statuses) group.statuses[status] += count;
  }
  std::vector<int> all(tallies.size());
  for (std::size_t index = 0; index < all.size(); ++index) all[index] = static_cast<int>(index);
  const std::size_t p_count = settings.ps.size();
  const auto point = metrics_of(tallies, all, ks, p_count);
  const auto intervals = bootstrap_intervals(
      static_cast<int>(tallies.size()), settings.bootstrap, settings.seed,
      [&](const std::vector<int>& pick) { return metrics_of(tallies, pick, ks, p_count); });
  const auto names = metric_names(ks, settings.ps);
  // Only the simulated node judged and nothing was timed: fast_p was not measured (not 0).
  const bool untimed_simulation = group.simulated_records > 0 && group.timed_samples == 0;
  for (std::size_t slot = 0; slot < names.size(); ++slot) {
    Estimate estimate{names[slot], point[slot], std::nullopt, std::nullopt};
    if (untimed_simulation && names[slot].rfind("fast_", 0) == 0) {
      estimate.value.reset();
      group.metrics.push_back(estimate);
      continue;
    }
    if (point[slot] && slot < intervals.size() && intervals[slot]) {
      estimate.low = intervals[slot]->low;
      estimate.high = intervals[slot]->high;
    }
    group.metrics.push_back(estimate);
  }
  return group;
}

namespace {

std::vector<int> choose_ks(const std::vector<ProblemTally>& tallies, const ScoreSettings& settings,
                           std::vector<std::string>& notes) {
  int smallest = 0;
  for (const auto& tally : tallies)
    if (tally.n > 0 && (smallest == 0 || tally.n < smallest)) smallest = tally.n;
  std::vector<int> ks;
  for (int k : settings.ks) {
    if (k < 1) throw UsageError("--k " + std::to_string(k) + ": expected positive integers");
    if (smallest == 0 || k <= smallest) {
      ks.push_back(k);
      continue;
    }
    if (!settings.ks_given) {
      notes.push_back("k = " + std::to_string(k) + " left out: a problem has only " +
                      std::to_string(smallest) + " samples");
      continue;
    }
    for (const auto& tally : tallies)
      if (tally.n > 0 && tally.n < k)
        throw UsageError("--k " + std::to_string(k) + ": problem " + tally.problem + " has n = " +
                         std::to_string(tally.n) + " scored samples, and k must not exceed n");
  }
  if (ks.empty()) ks.push_back(1);
  return ks;
}

}  // namespace

std::string format_p(double p) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", p);
  return text;
}

std::string fast_name(double p, int k) { return "fast_" + format_p(p) + "@" + std::to_string(k); }

bool is_at_k_metric(const std::string& metric) {
  return metric.rfind("pass@", 0) == 0 || metric.rfind("fast_", 0) == 0;
}

const Estimate* GroupScore::find(const std::string& metric) const {
  for (const auto& estimate : metrics)
    if (estimate.name == metric) return &estimate;
  return nullptr;
}

Score compute_score(Pool pool, const ScoreSettings& settings) {
  for (double p : settings.ps)
    if (p < 0 || !std::isfinite(p)) throw UsageError("--p " + format_p(p) + ": expected p >= 0");
  if (settings.bootstrap < 0) throw UsageError("--bootstrap: expected a count >= 0");
  Score score;
  score.settings = settings;
  pool = keep_complete_runs(std::move(pool), score.notes);  // runs of other settings: same problems
  score.problems = tally_problems(pool, settings.ps);
  score.pool = std::move(pool);
  score.ks = choose_ks(score.problems, settings, score.notes);
  std::vector<const ProblemTally*> all;
  std::map<std::string, std::vector<const ProblemTally*>> by_category;
  for (const auto& tally : score.problems) {
    all.push_back(&tally);
    by_category[tally.category].push_back(&tally);
  }
  score.overall = score_group("all", all, score.ks, settings);
  for (const auto& [category, tallies] : by_category)
    score.categories.push_back(score_group(category, tallies, score.ks, settings));
  score.turns = turn_count(score.pool);
  score.per_turn = score_turns(score.pool, score.turns, score.ks, settings);
  int no_gpu = 0, not_evaluated = 0;  // compiled without a GPU; only generated (schema 1)
  for (const auto& tally : score.problems)
    if (tally.n > 0 && tally.unknown) ++(tally.statuses.count("compiled") ? no_gpu : not_evaluated);
  if (no_gpu > 0)
    score.notes.push_back(std::to_string(no_gpu) +
                          " problems not executed (no GPU judged them, or the simulated node met an "
                          "instruction it does not implement): correctness unknown, left out of "
                          "pass@k and fast_p@k");
  if (not_evaluated > 0)
    score.notes.push_back(std::to_string(not_evaluated) +
                          " problems answered but not evaluated (pkb generate output; pkb evaluate "
                          "runs them): left out of pass@k and fast_p@k");
  if (score.overall.problems_empty > 0)
    score.notes.push_back(std::to_string(score.overall.problems_empty) +
                          " problems without a scored sample, left out of pass@k and fast_p@k");
  const int api_errors = score.overall.statuses.count("api_error") ? score.overall.statuses.at("api_error") : 0;
  if (api_errors > 0)
    score.notes.push_back(std::to_string(api_errors) + " api_error records not scored");
  if (!score.pool.skipped.empty())
    score.notes.push_back(std::to_string(score.pool.skipped.size()) +
                          " records skipped (torn last line): " + score.pool.skipped.front().where);
  if (score.pool.mixed) score.notes.push_back("runs with different settings scored together (--allow-mixed)");
  return score;
}

}  // namespace pkb::score
