// `pkb run` without the command line: generation workers feed the evaluator (evaluator.h), so
// answers compile while others are still being generated, and each turn's final record is
// written once to samples.jsonl; with --turns T a verdict goes back to the model as the next
// turn (conversation.h). Resumable: finished samples are skipped, conversations continue at the
// turn where they stopped, a torn last line is dropped and redone, api_error turns are asked again.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "src/generate/generator.h"
#include "src/run/conversation.h"
#include "src/run/evaluator.h"
#include "src/run/run_json.h"
#include "src/run/run_stats.h"

namespace pkb::run {

struct RunConfig {
  /// Model, sampling, prompts, samples, --jobs, --out, --resume, fingerprint (the merge key:
  /// samples, trials and turns included), run_info (command, model) and the cancel flag.
  generate::GenerateConfig generation;
  EvalSettings eval;  // eval.out and eval.cancel equal generation.out and generation.cancel
  RunContext context;
  std::vector<results::RunProblem> problems;  // run.json's problems list
  TurnPolicy turns;         // --turns, --stop-speedup, --max-tokens-total
  /// prompts/feedback.md or --feedback-template, loaded (and so checked) before the run starts.
  std::shared_ptr<const feedback::FeedbackTemplate> feedback_template;
};

/// Throws pkb::UsageError (bad --out, a locked directory, --resume with other settings) before
/// anything is written; pkb::Error for pkb's own failures during the run.
RunSummary run_pipeline(const RunConfig& config, model::ModelClient& client,
                        generate::GenerateStats& generation_stats, RunStats& stats);

}  // namespace pkb::run
