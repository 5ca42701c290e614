// judge_speed_of_light (see eval_sol.h).
#include "src/eval/eval_sol.h"

#include <cstdio>

#include "src/common/error.h"
#include "src/sol/profile.h"

namespace pkb::eval {

void judge_speed_of_light(const EvalRequest& request, EvalOutcome& outcome) {
  std::vector<sol::Profile> profiles;
  try {
    profiles = sol::load_profiles(sol::default_profiles_path());
  } catch (const Error& error) {
    outcome.sol_note = error.what();
    return;
  }
  outcome.sol = sol::judge_run(*request.spec, request.dims, request.world, request.dtype,
                               outcome.run, profiles, outcome.sol_note);
  if (!outcome.sol || !outcome.sol->suspicious_fast) return;
  char line[256];
  const double median_ms = outcome.sol->sol_ms / outcome.sol->sol_fraction;
  std::snprintf(
      line, sizeof line,
      "suspicious_fast: median %.3g us is below the %s floor of %.3g us on %s (margin %.0f%%)",
      median_ms * 1e3, outcome.sol->binding.c_str(), outcome.sol->sol_ms * 1e3,
      outcome.sol->profile.c_str(), sol::kSuspiciousMargin * 100);
  outcome.warnings.emplace_back(line);
}

}  // namespace pkb::eval
