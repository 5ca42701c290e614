// The speed-of-light judge of a timed sample (issue 10): how close the candidate came to the floor,
// and whether it claims to beat it. The margin absorbs profile error (datasheet peaks are rounded,
// clocks boost, a floor counts only compulsory traffic): a median below floor x (1 - margin) cannot
// be a real call of the problem (a skipped or cached computation, or broken timing).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/sol/floor.h"

namespace pkb::sol {

/// 10%: larger than the spread between datasheet peaks and what the parts reach, small enough that
/// a kernel skipping half of its work is still caught.
constexpr double kSuspiciousMargin = 0.10;

struct Judgement {
  double sol_ms = 0;        // the floor of one call
  double sol_fraction = 0;  // floor / candidate median: 1.0 is the speed of light
  bool suspicious_fast = false;
  std::string binding;  // the resource that sets the floor
  std::string profile;  // the hardware profile's key
};

/// `candidate_median_ms` <= 0 (not timed) gives sol_fraction 0 and never suspicious.
Judgement judge(const Floor& floor, double candidate_median_ms, const std::string& profile_key,
                double margin = kSuspiciousMargin);

/// The judgement of a worker's result (harness/executor/worker_protocol.h as JSON: "timing" with
/// candidate.median_us and emulated, "device" with names and multicast), with the profile matched
/// by the device's name. Empty when the run was not timed, the GPU has no profile, or the problem
/// no sol entry; `why` then says which.
std::optional<Judgement> judge_run(const problem::ProblemSpec& spec,
                                   const std::map<std::string, std::int64_t>& dims, int world,
                                   DType dtype, const nlohmann::json& run,
                                   const std::vector<Profile>& profiles, std::string& why);

}  // namespace pkb::sol
