// `pkb score`'s numbers: every headline metric with a bootstrap interval over problems, overall and
// per category, and the per-problem counts behind them (docs/RESULTS.md, "How `pkb score` reads a directory").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/score/merge.h"
#include "src/score/tally.h"

namespace pkb::score {

struct ScoreSettings {
  std::vector<int> ks = {1, 5, 10};
  bool ks_given = false;  // false: the ks above a problem's n are left out (and said so)
  std::vector<double> ps = {0, 1, 1.5, 2};
  std::uint64_t seed = 1;
  int bootstrap = 1000;
};

/// One number, its 95% interval, or null with a reason ("not executed (no verdict)").
struct Estimate {
  std::string name;  // "pass@1", "fast_1.5@5", "geomean_speedup", "compile_rate", ...
  std::optional<double> value, low, high;
};

struct GroupScore {
  std::string name;           // "all", or the category
  int problems = 0;           // in the group
  int problems_scored = 0;    // with samples and known correctness: the averages run over these
  int problems_unknown = 0;   // not executed (nobody judged them): correctness unknown
  int problems_empty = 0;     // no scored sample (none, or only api_error)
  int samples = 0;            // scored samples
  int timed_samples = 0;      // speedups in the geometric mean
  int simulated_records = 0;  // judged by the simulated node: in pass@k, never in fast_p
  std::map<std::string, int> statuses;  // per record
  std::vector<Estimate> metrics;
  const Estimate* find(const std::string& name) const;
};

/// The run-level numbers after `turn` answers (1-based): only records with turn < `turn` count, so
/// a sample is correct at turn t when one of its first t answers is (docs/RESULTS.md, "Turns in
/// scoring").
struct TurnScore {
  int turn = 1;
  int correct = 0;        // c summed over problems: samples correct by this turn
  std::vector<int> fast;  // f_p summed over problems, per p
  GroupScore group;       // n (samples) and every metric as a point estimate, no intervals;
                          // the reports show its pass@k and fast_p@k
};

struct Score {
  ScoreSettings settings;
  std::vector<int> ks;  // the ks used
  std::vector<std::string> notes;  // what a reader must know: ks left out, unknown problems
  Pool pool;
  std::vector<ProblemTally> problems;
  GroupScore overall;
  std::vector<GroupScore> categories;
  int turns = 1;                    // T: fingerprint.turns or the highest record turn + 1
  std::vector<TurnScore> per_turn;  // turns 1..T; the last one equals `overall`'s point values
};

/// Scores a merged pool, overall, per category and per turn. Throws UsageError when an explicit k
/// exceeds a problem's n (naming the problem and n), or a p is negative; InputError for a
/// fingerprint.turns that is not an integer >= 1.
Score compute_score(Pool pool, const ScoreSettings& settings);

/// Every metric over `tallies` as one group named `name`, with intervals when settings.bootstrap
/// > 0. A pass@k or fast_p@k is null when a scored problem has fewer than k samples.
GroupScore score_group(const std::string& name, const std::vector<const ProblemTally*>& tallies,
                       const std::vector<int>& ks, const ScoreSettings& settings);

/// Whether `metric` is an estimator at k (pass@k, fast_p@k): what a per-turn row reports.
bool is_at_k_metric(const std::string& metric);

/// "fast_1.5@5": p printed shortest ("1", "1.5").
std::string fast_name(double p, int k);
std::string format_p(double p);

}  // namespace pkb::score
