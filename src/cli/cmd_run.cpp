// `pkb run [--model M] [--problems LIST] [--samples K] [--world W] [--dtype D] [--trials T]
// [--jobs J] [--compile-jobs C] [--out DIR] [--resume] [--turns T] ...`: generation, compilation
// and GPU evaluation in one pipeline (src/run), results in docs/RESULTS.md's layout. Without a GPU
// every answer is still compiled and its plan validated (status compiled); with --turns T each
// verdict goes back to the model for another answer (docs/TURNS.md).
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

#include "src/cli/command.h"
#include "src/cli/interrupt.h"
#include "src/cli/run_eval_flags.h"
#include "src/cli/run_options.h"
#include "src/cli/run_progress.h"
#include "src/cli/turn_flags.h"
#include "src/common/error.h"
#include "src/run/run_pipeline.h"

namespace pkb::cli {
namespace {

// results/<model>-<YYYYMMDD>-<6 hex>: the model name with anything but [A-Za-z0-9._-] as '-'.
std::string default_out(const std::string& model) {
  std::string name;
  for (const char c : model)
    name +=
        (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-') ? c : '-';
  const std::time_t now = std::time(nullptr);
  char date[16];
  std::strftime(date, sizeof date, "%Y%m%d", std::gmtime(&now));
  std::random_device entropy;
  char id[8];
  std::snprintf(id, sizeof id, "%06x", static_cast<unsigned>(entropy() & 0xffffff));
  return "results/" + name + "-" + date + "-" + id;
}

}  // namespace

std::function<int()> setup_run(CLI::App& app, const GlobalOptions& global) {
  auto flags = std::make_shared<ModelFlags>();
  auto eval_flags = std::make_shared<EvalFlags>();
  auto turn_flags = std::make_shared<TurnFlags>();
  add_model_flags(app, *flags, false, "replay:examples/replay");
  add_eval_flags(app, *eval_flags);
  add_turn_flags(app, *turn_flags);
  return [&global, flags, eval_flags, turn_flags] {
    run::TurnPolicy turns = turn_policy(*turn_flags, flags->max_tokens);
    std::string feedback_sha256;
    auto feedback_template = load_feedback_template(*turn_flags, feedback_sha256);
    if (flags->out.empty()) {
      if (flags->resume) throw UsageError("--resume: name the run to continue with --out DIR");
      flags->out = default_out(flags->model);
    }
    PreparedGeneration prepared = prepare_generation(global, *flags, &interrupted());
    // Without --max-tokens, the cap is the model table's default, known only now.
    turns.max_tokens = flags->max_tokens;
    std::vector<const problem::ProblemSpec*> specs;
    int max_world = 1;
    nlohmann::json problems = nlohmann::json::array();
    for (std::size_t index = 0; index < prepared.specs.size(); ++index) {
      const auto& spec = prepared.specs[index];
      const auto& problem = prepared.config.problems[index];
      specs.push_back(&spec);
      max_world = std::max(max_world, problem.world);
      problems.push_back({{"key", spec.key},
                          {"id", spec.id},
                          {"category", spec.category},
                          {"world", problem.world},
                          {"dtype", dtype_name(problem.dtype)},
                          {"prompt_sha256", problem.prompt.sha256}});
    }
    run::RunConfig config;
    config.generation = std::move(prepared.config);
    config.generation.fingerprint["samples"] = flags->samples;
    config.generation.fingerprint["trials"] = eval_flags->trials;
    // Only when set, so timed runs keep the fingerprint they always had: an untimed run has no
    // speedups, and pooled with timed ones it would dilute fast_p.
    if (eval_flags->no_timing) config.generation.fingerprint["no_timing"] = true;
    add_turn_fingerprint(*turn_flags, feedback_sha256, config.generation.fingerprint);
    config.generation.run_info["command"] = "pkb run" + model_flags_text(*flags) +
                                            eval_flags_text(*eval_flags) +
                                            turn_flags_text(*turn_flags);
    config.turns = turns;
    config.feedback_template = std::move(feedback_template);
    config.eval = eval_settings("run", *eval_flags, flags->out, specs, prepared.dims, max_world,
                                &interrupted());
    config.context = run_context(specs, max_world);
    config.problems = problems;

    generate::GenerateStats generation_stats;
    run::RunStats stats;
    run::RunSummary summary;
    {
      const InterruptScope interrupt;
      RunProgress progress("run", stats);
      summary = run::run_pipeline(config, *prepared.client, generation_stats, stats);
    }
    const int records = summary.summary.value("total", 0);
    const int samples = summary.summary.value("samples", 0);
    spdlog::info("run: {} samples{} in {}: {}{}", samples,
                 records != samples ? " (" + std::to_string(records) + " turns)" : std::string(),
                 flags->out, status_counts_text(summary.summary),
                 summary.resumed ? " (" + std::to_string(summary.resumed) + " resumed)" : "");
    // A run the client stopped (a dead endpoint, a bad key) left its unasked samples for --resume.
    const std::string stopped = prepared.client->stop_reason();
    if (!summary.cancelled && stopped.empty()) spdlog::info("run: next: pkb score {}", flags->out);
    if (summary.cancelled) {
      std::fprintf(stderr,
                   "pkb: interrupted: %s holds every sample finished so far; --resume continues\n",
                   flags->out.c_str());
      return 130;
    }
    if (!stopped.empty())
      throw WorkFailed("run: stopped: " + stopped + "; pkb run --resume --out " + flags->out +
                       " continues");
    const int api_errors = summary.summary["by_status"].value("api_error", 0);
    if (api_errors > 0)
      throw WorkFailed("run: " + std::to_string(api_errors) +
                       " turns got no answer (api_error in " + flags->out +
                       "/samples.jsonl); pkb run --resume --out " + flags->out +
                       " asks for them again");
    return 0;
  };
}

}  // namespace pkb::cli
