// `pkb doctor`'s speed-of-light section (issue 10): the hardware profile that names this machine's
// GPU, its datasheet numbers, and beside them what doctor measures here (copy bandwidth on GPU 0,
// peer bandwidth from GPU 0 to GPU 1) and what the driver reports (SMs, multicast).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "harness/device_probe.h"

namespace pkb::cli {

/// {"profile": key or null, "why": ..., "rows": [{name, profile, measured, unit, source}]}.
/// Measures only when `measure` and a GPU is present.
nlohmann::ordered_json profile_check(const harness::MachineInfo& info, bool measure);

void print_profile_check(const nlohmann::ordered_json& check, std::ostream& out);

}  // namespace pkb::cli
