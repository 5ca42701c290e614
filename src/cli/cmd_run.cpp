// `pkb run [--model M] [--problems LIST] [--samples K] [--world W] [--dtype D] [--trials T]
// [--jobs J] [--compile-jobs C] [--out DIR] [--resume] [--turns T] ...`: generation, compilation
// and evaluation in one pipeline (src/run), results in docs/RESULTS.md's layout. Without a GPU the
// simulated node judges every answer (verdicts, no timing; --device gpu stops at `compiled`
// instead); with --turns T each verdict goes back to the model for another answer (docs/TURNS.md).
// It ends with the run's pass@1 and who judged it.
#include <spdlog/spdlog.h>

#include <cstdio>

#include "src/cli/command.h"
#include "src/cli/interrupt.h"
#include "src/cli/run_config.h"
#include "src/cli/run_headline.h"
#include "src/cli/run_progress.h"
#include "src/common/error.h"

namespace pkb::cli {

std::function<int()> setup_run(CLI::App& app, const GlobalOptions& global) {
  auto flags = std::make_shared<ModelFlags>();
  auto eval_flags = std::make_shared<EvalFlags>();
  auto turn_flags = std::make_shared<TurnFlags>();
  add_model_flags(app, *flags, false, "replay:examples/replay");
  add_eval_flags(app, *eval_flags);
  add_turn_flags(app, *turn_flags);
  return [&global, flags, eval_flags, turn_flags] {
    PreparedRun prepared = prepare_run(global, *flags, *eval_flags, *turn_flags);
    generate::GenerateStats generation_stats;
    run::RunStats stats;
    run::RunSummary summary;
    {
      const InterruptScope interrupt;
      RunProgress progress("run", stats, prepared.config.eval.target.sim ? "the simulated node" : "the GPU");
      summary = run::run_pipeline(prepared.config, *prepared.generation.client, generation_stats,
                                  stats);
    }
    const int records = summary.records.total;
    const int samples = summary.records.samples;
    spdlog::info("run: {} samples{} in {}: {}{}", samples,
                 records != samples ? " (" + std::to_string(records) + " turns)" : std::string(),
                 flags->out, summary.records.status_text(),
                 summary.resumed ? " (" + std::to_string(summary.resumed) + " resumed)" : "");
    // A run the client stopped (a dead endpoint, a bad key) left its unasked samples for --resume.
    const std::string stopped = prepared.generation.client->stop_reason();
    if (!summary.cancelled && stopped.empty()) {
      if (const std::string headline = run_headline(flags->out); !headline.empty())
        spdlog::info("run: {}", headline);
      spdlog::info("run: next: pkb score {}", flags->out);
    }
    if (summary.cancelled) {
      std::fprintf(stderr,
                   "pkb: interrupted: %s holds every sample finished so far; --resume continues\n",
                   flags->out.c_str());
      return 130;
    }
    if (!stopped.empty())
      throw WorkFailed("run: stopped: " + stopped + "; pkb run --resume --out " + flags->out +
                       " continues");
    const int api_errors = summary.records.count("api_error");
    if (api_errors > 0)
      throw WorkFailed("run: " + std::to_string(api_errors) +
                       " turns got no answer (api_error in " + flags->out +
                       "/samples.jsonl); pkb run --resume --out " + flags->out +
                       " asks for them again");
    return 0;
  };
}

}  // namespace pkb::cli
