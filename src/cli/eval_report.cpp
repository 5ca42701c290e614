// pkb eval's report (see eval_report.h).
#include "src/cli/eval_report.h"

#include <cstdio>
#include <iostream>

#include "src/cli/problem_args.h"
#include "src/cli/table.h"
#include "src/problem/dims.h"
#include "src/results/record.h"

namespace pkb::cli {

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
      {"target", {{"arch", target.arch}, {"gpu", target.gpu}, {"sim", target.sim}, {"gpu_name", target.gpu_name},
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
  if (!outcome.shapes.empty()) doc["shapes"] = eval::shapes_json(outcome.shapes);
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
                    (target.gpu ? " (" + target.gpu_name + ")" : target.sim ? " (no GPU: the simulated node judges)" : " (no GPU)"));
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
  if (outcome.shapes.size() > 1) {
    // Where the trials ran: the main sizes, then each drawn shape (and its SMs, where fewer).
    std::string shapes;
    for (const auto& shape : outcome.shapes)
      shapes += (shapes.empty() ? "" : "; ") + eval::shape_dims_text(shape.dims) + " (" +
                (shape.kind == "main" ? std::to_string(shape.seeds.size()) + " trials"
                                      : shape.kind + (shape.num_sms > 0 ? ", num_sms " + std::to_string(shape.num_sms) : "")) +
                ")";
    table.add_row({"shapes", shapes});
  }
  const auto timing = outcome.run.is_object()
                          ? results::timing_summary(outcome.run.value("timing", nlohmann::json()))
                          : std::nullopt;
  if (timing) {
    char line[256];
    std::snprintf(line, sizeof line, "candidate %.1f us, baseline %.1f us (medians of %.0f and %.0f), speedup %.2fx%s",
                  timing->candidate.median_us.value_or(0), timing->baseline.median_us.value_or(0),
                  timing->candidate.iterations.value_or(0), timing->baseline.iterations.value_or(0),
                  timing->speedup.value_or(0), timing->emulated ? " (emulated: not comparable)" : "");
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

}  // namespace pkb::cli
