// Per-problem counts from a pool of records: n, c and f_p for the estimators, plus the counts the
// rates, error kinds, tokens and latency are built from.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/score/merge.h"

namespace pkb::score {

struct ProblemTally {
  std::string problem;
  std::string category;          // "unknown" when no record or run.json names one
  int n = 0;                     // scored samples: every sample with a non-api_error turn
  int c = 0;                     // correct samples (any turn correct)
  std::vector<int> fast;         // per p: correct, speedup > p (p = 0: correct), trusted timing
  bool unknown = false;          // a sample was never executed (compiled / generated)
  std::vector<double> speedups;  // of correct samples with trusted timing (best turn)
  std::vector<double> sol_fractions;  // of those samples, floor / median where judged (best turn)
  int simulated = 0;     // records judged by the simulated node (verdicts, never timings)
  // Per record (every turn):
  std::map<std::string, int> statuses;
  int responses = 0;      // records with a model response (not api_error)
  int format_errors = 0;
  int with_answer = 0;    // compile was attempted (not api_error, format_error, generated)
  int past_compile = 0;   // of those, got past compile
  double tokens_sum = 0, latency_sum = 0;
  int tokens_count = 0, latency_count = 0;
};

/// One tally per problem in pool.problems order; `ps` are the fast_p thresholds.
std::vector<ProblemTally> tally_problems(const Pool& pool, const std::vector<double>& ps);

/// Whether a timed correct sample counts toward fast_p: strictly faster than p, timing measured on
/// real GPUs (not emulated) and not flagged by the speed-of-light check. p = 0 means correct.
/// A verdict of the simulated node never counts: it proves the logic, not the speed.
bool counts_as_fast(bool correct, double speedup, bool emulated, bool flagged, double p,
                    bool simulated = false);

}  // namespace pkb::score
