// Details of a correct record: the candidate's and the baseline's times, the speedup, the fraction
// of the speed of light when it was judged, and whether the timing can be trusted.
#pragma once

#include <string>

#include "src/results/record.h"

namespace pkb::feedback {

/// Reads record.timing.{candidate,baseline}.{median_us,p10_us,p90_us,iterations}, timing.speedup,
/// timing.emulated, timing.baseline_kind, timing.sol_flag (records before the one speed-of-light judgement), sol_fraction, sol_ms, suspicious_fast.
/// "" when the record was not timed.
std::string timing_details(const results::Record& record);

/// Whether record.timing.emulated: ranks shared a GPU, so the speed is no evidence.
bool timing_emulated(const results::Record& record);

}  // namespace pkb::feedback
