// evaluate_work and floor_time (see floor.h).
#include "src/sol/floor.h"

#include <algorithm>

#include "src/common/error.h"

namespace pkb::sol {
namespace {

double eval_term(const problem::ProblemSpec& spec, const problem::SolTerm& term,
                 const std::string& field, const problem::ExprEnv& env, int world) {
  std::int64_t value = 0;
  try {
    value = term.expr.eval(env);
  } catch (const Error& error) {
    throw InputError(spec.key + ": sol." + field + " \"" + term.expr.text() +
                     "\" at W=" + std::to_string(world) + ": " + error.what());
  }
  if (value < 0)
    throw InputError(spec.key + ": sol." + field + " \"" + term.expr.text() + "\" at W=" +
                     std::to_string(world) + ": negative (" + std::to_string(value) + ")");
  return static_cast<double>(value);
}

}  // namespace

Work evaluate_work(const problem::ProblemSpec& spec,
                   const std::map<std::string, std::int64_t>& dims, int world, DType dtype) {
  if (!spec.sol) throw InputError(spec.key + ": problem.json has no \"sol\" entry (issue 10)");
  const problem::ExprEnv env = problem::make_sol_env(dims, world, dtype);
  Work work;
  work.link_bytes = eval_term(spec, spec.sol->link_bytes, "link_bytes", env, world);
  if (spec.sol->link_bytes_nvls)
    work.link_bytes_nvls =
        eval_term(spec, *spec.sol->link_bytes_nvls, "link_bytes_nvls", env, world);
  work.hbm_bytes = eval_term(spec, spec.sol->hbm_bytes, "hbm_bytes", env, world);
  work.flops = eval_term(spec, spec.sol->flops, "flops", env, world);
  return work;
}

Floor floor_time(const Work& work, const Profile& profile, const Setting& setting) {
  // Emulated: W ranks share one GPU, so its HBM carries every rank's traffic (peer data included:
  // hbm_bytes already counts received data once as written) and its SMs do every rank's FLOPs.
  const double ranks = setting.emulated ? setting.world : 1;
  const double link_rate = setting.emulated ? 0 : profile.link_bytes_per_s;
  Floor floor;
  auto add = [&](const std::string& name, double amount, double rate) {
    floor.resources.push_back({name, amount, rate, rate > 0 ? amount / rate : 0});
  };
  add("link", setting.emulated ? 0 : work.link_bytes, link_rate);
  if (work.link_bytes_nvls)
    add("link_nvls", setting.emulated ? 0 : *work.link_bytes_nvls, link_rate);
  add("hbm", ranks * work.hbm_bytes, profile.hbm_bytes_per_s);
  add("flops", ranks * work.flops, profile.flops_rate(setting.dtype));

  const bool nvls = profile.nvls && setting.multicast;
  double link_s = floor.resources[0].seconds;
  std::string link_name = "link";
  if (work.link_bytes_nvls && nvls && floor.resources[1].seconds < link_s) {
    link_s = floor.resources[1].seconds;
    link_name = "link_nvls";
  }
  floor.link_used = link_name;
  floor.link_seconds = link_s;
  floor.seconds = link_s;
  floor.binding = link_name;
  for (const auto& resource : floor.resources) {
    if (resource.name.rfind("link", 0) == 0) continue;
    if (resource.seconds > floor.seconds) {
      floor.seconds = resource.seconds;
      floor.binding = resource.name;
    }
  }
  return floor;
}

}  // namespace pkb::sol
