// `pkb evaluate DIR [--trials T] [--dims ...] [--compile-jobs C] ...`: evaluate, on this machine,
// the answers a `pkb generate` (or an earlier run) wrote to DIR. The same command continues an
// interrupted evaluation. See src/run/evaluate_dir.h for how DIR changes.
#include <spdlog/spdlog.h>

#include <cstdio>

#include "src/cli/command.h"
#include "src/cli/interrupt.h"
#include "src/cli/problem_args.h"
#include "src/cli/run_eval_flags.h"
#include "src/cli/run_progress.h"
#include "src/common/error.h"
#include "src/merge/shard_split.h"
#include "src/run/evaluate_dir.h"

namespace pkb::cli {
std::function<int()> setup_evaluate(CLI::App& app, const GlobalOptions& global) {
  struct Flags {
    std::string dir, dims, shard, out;
    EvalFlags eval;
  };
  auto flags = std::make_shared<Flags>();
  app.add_option("dir", flags->dir, "A results directory written by pkb generate (or pkb run)")
      ->required();
  app.add_option("--dims", flags->dims,
                 "Sizes: test, bench or NAME=SIZE,... (default: the run's own)");
  app.add_option("--shard", flags->shard, shard::kShardHelp);
  app.add_option("--out", flags->out, "With --shard: the shard's results directory (DIR is only read)");
  add_eval_flags(app, flags->eval);
  return [&global, flags] {
    std::filesystem::path dir(flags->dir);
    std::string shard_flags;
    if (!flags->shard.empty() || !flags->out.empty()) {
      if (flags->shard.empty()) throw UsageError("--out " + flags->out + ": only with --shard I/N");
      const shard::Shard shard = shard::parse_shard(flags->shard);
      if (flags->out.empty())
        throw UsageError("--shard " + flags->shard + ": name the shard's results directory with --out DIR");
      merge::split_shard(dir, flags->out, shard);
      dir = flags->out;
      shard_flags = " --shard " + flags->shard + " --out " + flags->out;
    }
    const run::EvaluationProblems problems =
        run::evaluation_problems(dir, open_index(global), flags->dims);
    std::vector<const problem::ProblemSpec*> specs;
    for (const auto& spec : problems.specs) specs.push_back(&spec);

    run::EvaluateConfig config;
    config.dir = dir;
    config.eval = eval_settings("evaluate", flags->eval, dir, specs, problems.dims,
                                problems.max_world, &interrupted(), !flags->dims.empty());
    config.context = run_context(specs, problems.max_world, config.eval.target);
    config.problems = problems.entries;
    config.command = "pkb evaluate " + flags->dir + shard_flags + " --dims " + problems.dims_text +
                     eval_flags_text(flags->eval);
    config.dims = problems.dims_text;

    run::RunStats stats;
    run::RunSummary summary;
    {
      const InterruptScope interrupt;
      RunProgress progress("evaluate", stats, config.eval.target.sim ? "the simulated node" : "the GPU");
      summary = run::evaluate_directory(config, stats);
    }
    spdlog::info("evaluate: {} samples in {}: {}", summary.records.total, dir.string(),
                 summary.records.status_text());
    if (summary.cancelled) {
      std::fprintf(
          stderr,
          "pkb: interrupted: %s holds every sample finished so far; the same command continues\n",
          dir.c_str());
      return 130;
    }
    return 0;
  };
}

}  // namespace pkb::cli
