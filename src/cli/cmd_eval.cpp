// `pkb eval P SOLUTION [--plan FILE] [--world W] [--dtype D] [--dims ...] [--trials T] [--arch A] [--json]`:
// compiles, checks and times one solution (a model's answer, or a .cu file with --plan). Without
// a GPU it compiles, validates the plan and says that running it needs one (status compiled).
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "src/cli/command.h"
#include "src/cli/problem_args.h"
#include "src/cli/table.h"
#include "src/common/error.h"
#include "src/eval/eval.h"
#include "src/problem/dims.h"

namespace pkb::cli {
namespace {

nlohmann::ordered_json outcome_json(const problem::ProblemSpec& spec, const eval::EvalRequest& request,
                                    const eval::Target& target, const eval::EvalOutcome& outcome) {
  nlohmann::ordered_json doc = {
      {"schema_version", 1},
      {"problem", spec.key},
      {"world", request.world},
      {"dtype", dtype_name(request.dtype)},
      {"dims", request.dims},
      {"status", results::status_name(outcome.status)},
      {"message", outcome.message},
      {"target", {{"arch", target.arch}, {"gpu", target.gpu}, {"gpu_name", target.gpu_name},
                  {"gpu_count", target.gpu_count}, {"num_sms", target.limits.num_sms},
                  {"multicast", target.limits.multicast}}},
  };
  if (!outcome.compile.key.empty() || !outcome.compile.log.empty()) {
    nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
    for (const auto& kernel : outcome.compile.kernels) kernels.push_back(kernel.name);
    doc["compile"] = {{"ok", outcome.compile.ok},       {"seconds", outcome.compile.seconds},
                      {"cache_hit", outcome.compile.cache_hit}, {"nvrtc", outcome.compile.nvrtc_version},
                      {"key", outcome.compile.key},     {"kernels", kernels},
                      {"log", outcome.compile.log}};
  }
  doc["plan_steps"] = outcome.plan_steps;
  doc["library_steps"] = outcome.library_steps;
  doc["warnings"] = outcome.warnings;
  if (!outcome.run.is_null()) doc["run"] = outcome.run;
  if (outcome.sol)
    doc["sol"] = {{"sol_ms", outcome.sol->sol_ms},          {"sol_fraction", outcome.sol->sol_fraction},
                  {"suspicious_fast", outcome.sol->suspicious_fast}, {"binding", outcome.sol->binding},
                  {"profile", outcome.sol->profile}};
  else if (!outcome.sol_note.empty())
    doc["sol"] = {{"note", outcome.sol_note}};
  return doc;
}

void print_outcome(const problem::ProblemSpec& spec, const eval::EvalRequest& request, const eval::Target& target,
                   const eval::EvalOutcome& outcome) {
  Table table({"stage", "result"});
  table.add_comment(spec.key + ": W=" + std::to_string(request.world) + " P=" + std::string(dtype_name(request.dtype)) +
                    " " + dims_text(request.dims) + " target " + target.arch +
                    (target.gpu ? " (" + target.gpu_name + ")" : " (no GPU)"));
  if (!outcome.compile.key.empty()) {
    std::string kernels;
    for (const auto& kernel : outcome.compile.kernels) kernels += (kernels.empty() ? "" : " ") + kernel.name;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f s", outcome.compile.seconds);
    table.add_row({"compile", std::string(outcome.compile.ok ? "ok " : "failed ") + seconds +
                                  (outcome.compile.cache_hit ? " (cached)" : "") + (kernels.empty() ? "" : ", kernels: " + kernels)});
  }
  if (outcome.plan_steps > 0) {
    std::string library;
    for (const auto& step : outcome.library_steps) library += (library.empty() ? "" : " ") + step;
    table.add_row({"plan", std::to_string(outcome.plan_steps) + " steps" + (library.empty() ? "" : ", library: " + library)});
  }
  if (outcome.run.is_object() && outcome.run.contains("timing") && outcome.run["timing"].is_object()) {
    const auto& timing = outcome.run["timing"];
    char line[256];
    std::snprintf(line, sizeof line, "candidate %.1f us, baseline %.1f us (medians of %d and %d), speedup %.2fx%s",
                  timing["candidate"].value("median_us", 0.0), timing["baseline"].value("median_us", 0.0),
                  timing["candidate"].value("iterations", 0), timing["baseline"].value("iterations", 0),
                  timing.value("speedup", 0.0), timing.value("emulated", false) ? " (emulated: not comparable)" : "");
    table.add_row({"timing", line});
  }
  if (outcome.sol) {
    char line[256];
    std::snprintf(line, sizeof line, "floor %.2f us (%s, %s): the candidate reaches %.0f%% of it%s",
                  outcome.sol->sol_ms * 1e3, outcome.sol->binding.c_str(), outcome.sol->profile.c_str(),
                  outcome.sol->sol_fraction * 100,
                  outcome.sol->suspicious_fast ? "; SUSPICIOUS: faster than the floor" : "");
    table.add_row({"speed of light", line});
  } else if (!outcome.sol_note.empty()) {
    table.add_row({"speed of light", outcome.sol_note});
  }
  for (const auto& warning : outcome.warnings) table.add_row({"warning", warning});
  table.add_row({"status", std::string(results::status_name(outcome.status))});
  table.print(std::cout);
  std::cout << outcome.message << "\n";
  // The message is the log's first error line: stderr gets the rest (the source line, the caret,
  // later errors), so nothing is printed twice.
  if (outcome.status == results::SampleStatus::compile_error && !outcome.compile.log.empty()) {
    std::string rest = outcome.compile.log;
    if (const auto at = rest.find(outcome.message); at != std::string::npos && !outcome.message.empty()) {
      const auto end = rest.find('\n', at);
      rest.erase(at, end == std::string::npos ? std::string::npos : end - at + 1);
    }
    if (rest.find_first_not_of(" \n") != std::string::npos) std::cerr << rest << (rest.back() == '\n' ? "" : "\n");
  }
}

}  // namespace

std::function<int()> setup_eval(CLI::App& app, const GlobalOptions& global) {
  struct Flags {
    std::string problem, solution, plan, arch, work_dir;
    SettingFlags setting;
    int trials = 5;
    double compile_timeout = 120, run_timeout = 600;
    bool json = false, no_cache = false, no_timing = false;
  };
  auto flags = std::make_shared<Flags>();
  app.add_option("problem", flags->problem, "Problem id or name (e.g. 1, 001_allreduce)")->required();
  app.add_option("solution", flags->solution, "A model's answer (markdown with a ```cuda and a ```json block), or a .cu file with --plan")->required();
  app.add_option("--plan", flags->plan, "The plan (JSON) of a .cu SOLUTION");
  add_setting_flags(app, flags->setting);
  app.add_option("--trials", flags->trials, "Correctness trials, each with fresh secret inputs (default 5)")->check(CLI::Range(1, 100));
  app.add_option("--arch", flags->arch, "NVRTC target, e.g. sm_90a, sm_100a (default: the GPU's, else sm_90a)");
  app.add_option("--compile-timeout", flags->compile_timeout, "Seconds before NVRTC is stopped (default 120)")->check(CLI::PositiveNumber);
  app.add_option("--run-timeout", flags->run_timeout, "Seconds before the GPU worker is killed (default 600)")->check(CLI::PositiveNumber);
  app.add_option("--work-dir", flags->work_dir, "Keep the cubin, PTX and worker files here (default: a temporary folder)");
  app.add_flag("--no-cache", flags->no_cache, "Compile even when the compile cache has this source");
  app.add_flag("--no-timing", flags->no_timing, "Check correctness only");
  app.add_flag("--json", flags->json, "Print one JSON document instead of the table");
  return [&global, flags] {
    const auto index = open_index(global);
    const auto spec = index.load(index.resolve(flags->problem));
    eval::EvalRequest request;
    request.spec = &spec;
    auto [world, dtype, dims] = resolve_setting(spec, flags->setting);
    request.world = world;
    request.dtype = dtype;
    request.dims = std::move(dims);
    request.trials = flags->trials;
    request.time = !flags->no_timing;
    request.compile_timeout_s = flags->compile_timeout;
    request.run_timeout_s = flags->run_timeout;
    if (!flags->no_cache) request.cache_dir = eval::default_cache_dir();
    request.work_dir = flags->work_dir;
    if (!flags->plan.empty() && !std::filesystem::exists(flags->plan))
      throw UsageError("--plan " + flags->plan + ": no such file");
    if (!std::filesystem::exists(flags->solution)) throw UsageError(flags->solution + ": no such file");
    const auto candidate = eval::load_candidate(flags->solution, flags->plan);
    const auto target = eval::choose_target(flags->arch, request.world);
    const auto outcome = eval::evaluate(candidate, request, target);
    if (flags->json) std::cout << outcome_json(spec, request, target, outcome).dump(2) << "\n";
    else print_outcome(spec, request, target, outcome);
    return results::status_ok(outcome.status) ? 0 : 1;
  };
}

}  // namespace pkb::cli
