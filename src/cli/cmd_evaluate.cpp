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
#include "src/problem/dims.h"
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
    const nlohmann::json doc = run::read_run_json(dir);
    std::string dims = flags->dims;
    if (dims.empty())
      dims = doc.value("fingerprint", nlohmann::json::object()).value("dims", "bench");
    const auto index = open_index(global);
    std::vector<problem::ProblemSpec> loaded;
    loaded.reserve(doc["problems"].size());
    std::vector<std::map<std::string, std::int64_t>> problem_dims;
    nlohmann::json problems = nlohmann::json::array();
    int max_world = 1;
    for (const auto& entry : doc["problems"]) {
      const std::string key = entry.value("key", "");
      try {
        loaded.push_back(index.load(index.resolve(key)));
      } catch (const Error& error) {
        throw InputError((dir / "run.json").string() + ": problems: " + key + ": " + error.what());
      }
      const auto& spec = loaded.back();
      problem_dims.push_back(problem::select_dims(spec, dims, problem::DimsBase::bench));
      nlohmann::json problem = entry;
      problem["id"] = spec.id;
      problem["category"] = spec.category;
      problems.push_back(problem);
      max_world = std::max(max_world, entry.value("world", 1));
    }
    std::vector<const problem::ProblemSpec*> specs;
    for (const auto& spec : loaded) specs.push_back(&spec);

    run::EvaluateConfig config;
    config.dir = dir;
    config.eval =
        eval_settings("evaluate", flags->eval, dir, specs, problem_dims, max_world, &interrupted());
    config.context = run_context(specs, max_world);
    config.problems = problems;
    config.command =
        "pkb evaluate " + flags->dir + shard_flags + " --dims " + dims + eval_flags_text(flags->eval);
    config.dims = dims;

    run::RunStats stats;
    run::EvaluateSummary summary;
    {
      const InterruptScope interrupt;
      RunProgress progress("evaluate", stats);
      summary = run::evaluate_directory(config, stats);
    }
    spdlog::info("evaluate: {} samples in {}: {}", summary.summary.value("total", 0), dir.string(),
                 status_counts_text(summary.summary));
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
