// judge and judge_run (see judge.h).
#include "src/sol/judge.h"

#include "src/common/error.h"

namespace pkb::sol {

Judgement judge(const Floor& floor, double candidate_median_ms, const std::string& profile_key,
                double margin) {
  Judgement judgement;
  judgement.sol_ms = floor.seconds * 1e3;
  judgement.binding = floor.binding;
  judgement.profile = profile_key;
  if (candidate_median_ms > 0) {
    judgement.sol_fraction = judgement.sol_ms / candidate_median_ms;
    judgement.suspicious_fast = candidate_median_ms < judgement.sol_ms * (1 - margin);
  }
  return judgement;
}

std::optional<Judgement> judge_run(const problem::ProblemSpec& spec,
                                   const std::map<std::string, std::int64_t>& dims, int world,
                                   DType dtype, const nlohmann::json& run,
                                   const std::vector<Profile>& profiles, std::string& why) {
  const nlohmann::json timing =
      run.is_object() ? run.value("timing", nlohmann::json()) : nlohmann::json();
  if (!timing.is_object() || !timing.contains("candidate")) {
    why = "not timed";
    return std::nullopt;
  }
  const double median_us = timing["candidate"].value("median_us", 0.0);
  const nlohmann::json device = run.value("device", nlohmann::json::object());
  const auto names = device.value("names", std::vector<std::string>{});
  if (names.empty()) {
    why = "the worker named no device";
    return std::nullopt;
  }
  const auto profile = match_profile(profiles, names.front());
  if (!profile) {
    why = "no hardware profile describes '" + names.front() + "'";
    return std::nullopt;
  }
  if (!spec.sol) {
    why = spec.key + " has no sol entry";
    return std::nullopt;
  }
  Setting setting;
  setting.world = world;
  setting.dtype = dtype;
  setting.emulated = timing.value("emulated", false);
  setting.multicast = device.value("multicast", false);
  try {
    const Floor floor = floor_time(evaluate_work(spec, dims, world, dtype), *profile, setting);
    return judge(floor, median_us / 1e3, profile->key);
  } catch (const InputError& error) {
    why = error.what();
    return std::nullopt;
  }
}

}  // namespace pkb::sol
