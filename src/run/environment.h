// Where a run was evaluated (docs/RESULTS.md, run.json): the environment fingerprint, the key the
// leaderboard groups by, and the hash of the problem set. Unknown values are null, never guessed.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/device_probe.h"
#include "src/problem/spec.h"

namespace pkb::run {

/// `torch_version`: the libtorch the binary was built with ("" when unknown).
nlohmann::json environment_json(const harness::MachineInfo& machine,
                                const std::string& torch_version);

/// "8x NVIDIA H200"; "1x NVIDIA H200 (emulated)" when some world size exceeds the GPUs; "no GPU";
/// "simulated node" when the simulated node judges (`simulated`), whatever the machine has.
std::string hardware_key(const harness::MachineInfo& machine, int max_world, bool simulated = false);

/// {count, sha256}: SHA-256 over the bytes of each problem.json, concatenated in key order.
nlohmann::json problem_set_json(std::vector<const problem::ProblemSpec*> specs);

}  // namespace pkb::run
