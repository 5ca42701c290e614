// prepare_run (see run_config.h).
#include "src/cli/run_config.h"

#include <cctype>
#include <cstdio>
#include <ctime>
#include <random>

#include "src/cli/interrupt.h"
#include "src/common/error.h"

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

PreparedRun prepare_run(const GlobalOptions& global, ModelFlags& flags, const EvalFlags& eval_flags,
                        const TurnFlags& turn_flags) {
  run::TurnPolicy turns = turn_policy(turn_flags, flags.max_tokens);
  std::string feedback_sha256;
  auto feedback_template = load_feedback_template(turn_flags, feedback_sha256);
  if (flags.out.empty()) {
    if (flags.resume) throw UsageError("--resume: name the run to continue with --out DIR");
    flags.out = default_out(flags.model);
  }
  PreparedRun run;
  PreparedGeneration& prepared = run.generation;
  prepared = prepare_generation(global, flags, &interrupted());
  // Without --max-tokens, the cap is the model table's default, known only now.
  turns.max_tokens = flags.max_tokens;
  std::vector<const problem::ProblemSpec*> specs;
  int max_world = 1;
  std::vector<results::RunProblem> problems;
  for (std::size_t index = 0; index < prepared.specs.size(); ++index) {
    const auto& spec = prepared.specs[index];
    const auto& problem = prepared.config.problems[index];
    specs.push_back(&spec);
    max_world = std::max(max_world, problem.world);
    problems.push_back(generate::run_problem(problem, spec.category));
  }
  run::RunConfig& config = run.config;
  config.generation = std::move(prepared.config);
  config.generation.fingerprint["samples"] = flags.samples;
  config.generation.fingerprint["trials"] = eval_flags.trials;
  // Only when set, so timed runs keep the fingerprint they always had: an untimed run has no
  // speedups, and pooled with timed ones it would dilute fast_p.
  if (eval_flags.no_timing) config.generation.fingerprint["no_timing"] = true;
  add_turn_fingerprint(turn_flags, feedback_sha256, config.generation.fingerprint);
  config.generation.run_info["command"] = "pkb run" + model_flags_text(flags) +
                                          eval_flags_text(eval_flags) + turn_flags_text(turn_flags);
  config.turns = turns;
  config.feedback_template = std::move(feedback_template);
  config.eval =
      eval_settings("run", eval_flags, flags.out, specs, prepared.dims, max_world, &interrupted(),
                    flags.setting.dims_given());
  // A run judged on the simulated node never merges with, or resumes as, one judged on GPUs.
  if (config.eval.target.sim) config.generation.fingerprint["judge"] = "sim";
  // Judged at drawn shapes too (absent in runs judged at one shape): a stricter verdict never
  // merges with, or resumes as, one judged at the run's dims alone.
  if (config.eval.drawn_shapes > 0)
    config.generation.fingerprint["drawn_shapes"] = config.eval.drawn_shapes;
  config.context = run_context(specs, max_world, config.eval.target);
  config.problems = problems;
  return run;
}

}  // namespace pkb::cli
