// run_headline (see run_headline.h): the score of the directory, as `pkb score` computes it.
#include "src/cli/run_headline.h"

#include <cstdio>

#include "src/common/error.h"
#include "src/results/results_dir.h"
#include "src/score/score_report.h"

namespace pkb::cli {
namespace {

std::string number(const score::Estimate* estimate) {
  if (!estimate || !estimate->value) return "-";
  char text[64];
  if (estimate->low)
    std::snprintf(text, sizeof text, "%.3f [%.3f, %.3f]", *estimate->value, *estimate->low, *estimate->high);
  else
    std::snprintf(text, sizeof text, "%.3f", *estimate->value);
  return text;
}

}  // namespace

std::string run_headline(const std::string& out) {
  score::ScoreSettings settings;
  settings.ks = {1};
  settings.ks_given = true;
  try {
    const score::Score score = score::compute_score(score::merge_dirs({results::load_results_dir(out)}, false), settings);
    const score::GroupScore& all = score.overall;
    if (all.problems_scored == 0) return "";
    std::string line = "pass@1 " + number(all.find("pass@1")) + " over " + std::to_string(all.problems_scored) +
                       " problems";
    if (all.simulated_records > 0)
      line += "; judged on the simulated node (each candidate's PTX run on the CPU): verdicts only, nothing was timed";
    if (all.timed_samples > 0) line += "; fast_1@1 " + number(all.find("fast_1@1"));
    return line;
  } catch (const Error&) {
    return "";  // the run's own messages already said what went wrong
  }
}

}  // namespace pkb::cli
