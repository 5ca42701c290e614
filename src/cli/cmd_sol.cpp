// `pkb sol P --hardware H --world W [--dtype D] [--dims ...] [--json]`: the speed-of-light floor of
// one call (issue 10): each resource's least work per rank (problem.json "sol"), its time at the
// profile's rate, and which one binds. `pkb sol --all ...` prints one row per problem.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "src/cli/command.h"
#include "src/cli/problem_args.h"
#include "src/cli/table.h"
#include "src/common/error.h"
#include "src/problem/dims.h"
#include "src/sol/floor.h"

namespace pkb::cli {
namespace {

struct Flags {
  std::string problem, hardware, dtype = "bf16", dims = "bench";
  int world = 0;
  bool all = false, json = false, no_nvls = false;
};

/// 3 significant digits with an SI prefix: "3.67 MB", "989 TFLOP/s".
std::string si(double value, const std::string& unit) {
  const char* prefixes[] = {"", "K", "M", "G", "T", "P"};
  int index = 0;
  while (value >= 1000 && index < 5) {
    value /= 1000;
    ++index;
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.3g %s%s", value, prefixes[index], unit.c_str());
  return text;
}

std::string micros(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds * 1e6);
  return text;
}

const problem::SolTerm& term_of(const problem::SolSpec& spec, const std::string& name) {
  if (name == "link") return spec.link_bytes;
  if (name == "link_nvls") return *spec.link_bytes_nvls;
  if (name == "hbm") return spec.hbm_bytes;
  return spec.flops;
}

struct Evaluated {
  sol::Floor floor;
  sol::Setting setting;
  std::map<std::string, std::int64_t> dims;
};

Evaluated evaluate(const problem::ProblemSpec& spec, const sol::Profile& profile,
                   const Flags& flags, DType dtype) {
  Evaluated out;
  out.dims = problem::select_dims(spec, flags.dims, problem::DimsBase::bench,
                                 flags.world > 0 ? std::vector<int>{flags.world} : std::vector<int>{});
  out.setting.world = flags.world;
  out.setting.dtype = dtype;
  out.setting.multicast = !flags.no_nvls;
  out.floor =
      sol::floor_time(sol::evaluate_work(spec, out.dims, flags.world, dtype), profile, out.setting);
  return out;
}

nlohmann::ordered_json to_json(const problem::ProblemSpec& spec, const sol::Profile& profile,
                               const Evaluated& e) {
  nlohmann::ordered_json doc = {{"problem", spec.key},
                                {"hardware", profile.key},
                                {"world", e.setting.world},
                                {"dtype", dtype_name(e.setting.dtype)},
                                {"dims", e.dims}};
  doc["resources"] = nlohmann::ordered_json::array();
  for (const auto& resource : e.floor.resources) {
    const auto& term = term_of(*spec.sol, resource.name);
    doc["resources"].push_back({{"name", resource.name},
                                {"work", resource.work},
                                {"unit", resource.name == "flops" ? "FLOP" : "B"},
                                {"rate", resource.rate},
                                {"time_us", resource.seconds * 1e6},
                                {"expr", term.expr.text()},
                                {"why", term.why}});
  }
  doc["floor_us"] = e.floor.seconds * 1e6;
  doc["binding"] = e.floor.binding;
  doc["nvls"] = profile.nvls && e.setting.multicast;
  doc["baseline_fraction"] = nullptr;  // measured by pkb eval on a GPU (sol_fraction in results)
  return doc;
}

void print_one(const problem::ProblemSpec& spec, const sol::Profile& profile, const Evaluated& e) {
  Table table({"resource", "work", "rate", "time_us", "derivation"});
  table.add_comment(spec.key + " on " + profile.key + " (" + std::to_string(profile.count) + "x " +
                    profile.gpu + "), W=" + std::to_string(e.setting.world) + ", " +
                    std::string(dtype_name(e.setting.dtype)) + ", dims " + dims_text(e.dims));
  for (const auto& resource : e.floor.resources) {
    const bool flops = resource.name == "flops";
    table.add_row({resource.name, si(resource.work, flops ? "FLOP" : "B"),
                   si(resource.rate, flops ? "FLOP/s" : "B/s"), micros(resource.seconds),
                   term_of(*spec.sol, resource.name).why});
  }
  std::string verdict =
      "floor " + micros(e.floor.seconds) + " us per call, bound by " + e.floor.binding;
  if (e.floor.binding == "link_nvls")
    verdict += " (NVLS multicast; without it the link takes " +
               micros(e.floor.resources[0].seconds) + " us)";
  table.set_verdict(
      verdict +
      "\nbaseline fraction: not known here (pkb eval on a GPU records sol_fraction per sample)");
  table.print(std::cout);
}

int print_all(const problem::ProblemIndex& index, const sol::Profile& profile, const Flags& flags) {
  Table table(
      {"problem", "category", "dtype", "link_us", "hbm_us", "flops_us", "floor_us", "binding"});
  table.add_comment("speed of light on " + profile.key + ", W=" + std::to_string(flags.world) +
                    ", dims " + flags.dims);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  int missing = 0, skipped = 0;
  for (const auto& key : index.keys()) {
    const problem::ProblemSpec spec = index.load(key);
    if (!spec.allows_world(flags.world)) {
      ++skipped;
      continue;
    }
    if (!spec.sol) {
      ++missing;
      table.add_row({key, spec.category, "-", "-", "-", "-", "-", "no sol entry"});
      rows.push_back({{"problem", key}, {"error", "no sol entry"}});
      continue;
    }
    const auto wanted = parse_dtype(flags.dtype);
    const DType dtype = wanted && spec.allows_dtype(*wanted) ? *wanted : spec.dtypes.front();
    const Evaluated e = evaluate(spec, profile, flags, dtype);
    auto time_of = [&](const std::string& name) {
      for (const auto& resource : e.floor.resources)
        if (resource.name == name) return micros(resource.seconds);
      return std::string("-");
    };
    table.add_row({key, spec.category, std::string(dtype_name(dtype)), micros(e.floor.link_seconds),
                   time_of("hbm"), time_of("flops"), micros(e.floor.seconds), e.floor.binding});
    rows.push_back(to_json(spec, profile, e));
  }
  const std::string verdict = std::to_string(index.keys().size() - skipped - missing) +
                              " problems with a floor, " + std::to_string(missing) +
                              " without a sol entry, " + std::to_string(skipped) +
                              " not run at W=" + std::to_string(flags.world);
  if (flags.json) {
    std::cout << nlohmann::ordered_json(
                     {{"hardware", profile.key}, {"world", flags.world}, {"problems", rows}})
                     .dump(2)
              << "\n";
  } else {
    table.set_verdict(verdict);
    table.print(std::cout);
  }
  if (missing > 0) throw WorkFailed(std::to_string(missing) + " problems have no sol entry");
  return 0;
}

}  // namespace

std::function<int()> setup_sol(CLI::App& app, const GlobalOptions& global) {
  auto flags = std::make_shared<Flags>();
  app.add_option("problem", flags->problem, "Problem id, key or name (omit with --all)");
  app.add_flag("--all", flags->all, "One row per problem that allows --world");
  app.add_option("--hardware", flags->hardware,
                 "Hardware profile: a key of prompts/hardware.json (h100_8, h200_8, b200_8)")
      ->required();
  app.add_option("--world,-W", flags->world, "World size (ranks, one GPU each)")->required();
  app.add_option("--dtype", flags->dtype,
                 "Run precision (bf16, fp16, fp32); --all falls back to a problem's first");
  app.add_option("--dims", flags->dims, "test, bench (default) or NAME=SIZE overrides");
  app.add_flag("--no-nvls", flags->no_nvls,
               "Floor without NVLS multicast, as on a machine without it");
  app.add_flag("--json", flags->json, "Print JSON instead of a table");
  return [flags, &global] {
    const sol::Profile profile =
        sol::find_profile(sol::load_profiles(sol::default_profiles_path()), flags->hardware);
    if (flags->world < 1 || flags->world > profile.count)
      throw UsageError("--world " + std::to_string(flags->world) + ": " + profile.key + " has " +
                       std::to_string(profile.count) + " GPUs");
    const problem::ProblemIndex index = open_index(global);
    if (flags->all) {
      if (!flags->problem.empty())
        throw UsageError("--all: give either a problem or --all, not both");
      return print_all(index, profile, *flags);
    }
    if (flags->problem.empty()) throw UsageError("pkb sol: name a problem, or pass --all");
    const problem::ProblemSpec spec = index.load(index.resolve(flags->problem));
    check_world(spec, flags->world);
    const DType dtype = parse_run_dtype(spec, flags->dtype);
    if (!spec.sol) throw InputError(spec.key + ": problem.json has no \"sol\" entry (issue 10)");
    const Evaluated e = evaluate(spec, profile, *flags, dtype);
    if (flags->json)
      std::cout << to_json(spec, profile, e).dump(2) << "\n";
    else
      print_one(spec, profile, e);
    return 0;
  };
}

}  // namespace pkb::cli
