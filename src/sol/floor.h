// The speed-of-light floor of one call (issue 10): a problem's "sol" work per rank, evaluated at a
// setting, divided by a profile's rates. Floor = max(link, HBM, FLOPs) time; the argmax binds.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/problem/spec.h"
#include "src/sol/profile.h"

namespace pkb::sol {

/// The least work of one rank for one call, from problem.json "sol" at one setting.
struct Work {
  double link_bytes = 0;
  std::optional<double> link_bytes_nvls;
  double hbm_bytes = 0;
  double flops = 0;
};

/// Throws pkb::InputError when the problem has no sol entry, or an expression fails to evaluate
/// (division by zero, a negative result) at this setting, naming the problem and the field.
Work evaluate_work(const problem::ProblemSpec& spec,
                   const std::map<std::string, std::int64_t>& dims, int world, DType dtype);

/// How a call runs: W GPUs of the profile, or W ranks emulated on one of them.
struct Setting {
  int world = 2;
  DType dtype = DType::bf16;
  bool emulated = false;  // one GPU does every rank's HBM traffic and FLOPs; no link
  bool multicast = true;  // NVLS usable (the profile has it and the device allows it)
};

struct Resource {
  std::string name;    // link, link_nvls, hbm, flops
  double work = 0;     // bytes or FLOPs
  double rate = 0;     // bytes/s or FLOP/s
  double seconds = 0;  // work / rate
};

struct Floor {
  std::vector<Resource> resources;  // every resource, link_nvls only where the problem has it
  double seconds = 0;               // the floor time of one call
  std::string binding;              // the resource that sets it
  std::string link_used = "link";   // link, or link_nvls where NVLS is usable and lower
  double link_seconds = 0;
};

/// The floor of `work` on `profile`. With NVLS usable, the link term is the smaller of link and
/// link_nvls (a floor must hold for the best algorithm the machine allows).
Floor floor_time(const Work& work, const Profile& profile, const Setting& setting);

}  // namespace pkb::sol
