// Records to per-problem counts. A sample is the unit: its turns collapse to "correct at some
// turn", with the best trusted speedup over its turns (docs/RESULTS.md, "How `pkb score` reads a
// directory").
#include "src/score/tally.h"

#include <algorithm>
#include <tuple>

namespace pkb::score {
namespace {

struct SampleView {
  bool scored = false, correct = false, unknown = false;
  std::optional<double> speedup;  // best trusted speedup among correct turns
  std::optional<double> sol_fraction;  // that turn's fraction of the speed of light
  std::vector<bool> fast;
};

void count_record(const results::ScoredSample& record, ProblemTally& tally) {
  const std::string& status = record.status;
  ++tally.statuses[status];
  if (record.simulated) ++tally.simulated;
  if (status == "api_error") return;
  ++tally.responses;
  if (status == "format_error") ++tally.format_errors;
  if (status != "format_error" && status != "generated") {
    ++tally.with_answer;
    if (status != "compile_error") ++tally.past_compile;
  }
  if (record.output_tokens) tally.tokens_sum += *record.output_tokens, ++tally.tokens_count;
  if (record.latency_s) tally.latency_sum += *record.latency_s, ++tally.latency_count;
}

void add_turn(const results::ScoredSample& record, const std::vector<double>& ps,
              SampleView& view) {
  if (record.status == "api_error") return;
  view.scored = true;
  if (record.status == "compiled" || record.status == "generated") view.unknown = true;
  if (record.status != "correct") return;
  view.correct = true;
  const bool trusted = record.speedup && !record.emulated && !record.flagged;
  if (trusted && (!view.speedup || *record.speedup > *view.speedup)) {
    view.speedup = record.speedup;
    view.sol_fraction = record.sol_fraction;
  }
  for (std::size_t index = 0; index < ps.size(); ++index)
    if (counts_as_fast(true, record.speedup.value_or(0), record.emulated || !record.speedup,
                       record.flagged, ps[index], record.simulated))
      view.fast[index] = true;
}

}  // namespace

bool counts_as_fast(bool correct, double speedup, bool emulated, bool flagged, double p,
                    bool simulated) {
  if (!correct || simulated) return false;
  if (p <= 0) return true;
  return !emulated && !flagged && speedup > p;
}

std::vector<ProblemTally> tally_problems(const Pool& pool, const std::vector<double>& ps) {
  std::map<std::string, ProblemTally> tallies;
  std::map<std::tuple<std::string, int, int>, SampleView> samples;  // (problem, source, sample)
  for (const auto& problem : pool.problems) tallies[problem].problem = problem;
  for (const auto& [record, source] : pool.records) {
    count_record(*record, tallies[record->problem]);
    SampleView& view = samples[std::make_tuple(record->problem, source, record->sample)];
    view.fast.resize(ps.size());
    add_turn(*record, ps, view);
  }
  for (auto& [problem, tally] : tallies) {
    tally.problem = problem;
    tally.fast.assign(ps.size(), 0);
    auto category = pool.categories.find(problem);
    tally.category = category == pool.categories.end() ? "unknown" : category->second;
  }
  for (const auto& [key, view] : samples) {
    if (!view.scored) continue;
    ProblemTally& tally = tallies[std::get<0>(key)];
    ++tally.n;
    // A correct turn is known correct even if another turn was only compiled.
    if (view.unknown && !view.correct) tally.unknown = true;
    if (view.correct) ++tally.c;
    if (view.speedup) tally.speedups.push_back(*view.speedup);
    if (view.speedup && view.sol_fraction) tally.sol_fractions.push_back(*view.sol_fraction);
    for (std::size_t index = 0; index < ps.size(); ++index) tally.fast[index] += view.fast[index];
  }
  std::vector<ProblemTally> ordered;
  for (const auto& problem : pool.problems) ordered.push_back(std::move(tallies[problem]));
  return ordered;
}

}  // namespace pkb::score
