// `pkb eval P SOLUTION [--plan FILE] [--world W] [--dtype D] [--dims ...] [--trials T] [--drawn N] [--arch A]
// [--device auto|gpu|sim] [--json]`: compiles, checks and times one solution (a model's answer, or
// a .cu file with --plan). Without a GPU the simulated node judges it (at test dims unless --dims
// says otherwise; nothing is timed); with --device gpu and no GPU it stops at `compiled`.
#include <filesystem>
#include <iostream>

#include "src/cli/command.h"
#include "src/cli/eval_report.h"
#include "src/cli/problem_args.h"
#include "src/cli/run_eval_flags.h"
#include "src/common/error.h"
#include "src/eval/eval.h"

namespace pkb::cli {

std::function<int()> setup_eval(CLI::App& app, const GlobalOptions& global) {
  struct Flags {
    std::string problem, solution, plan, arch, work_dir, device = "auto", memory_model = "ptx";
    SettingFlags setting;
    int trials = 5, drawn = -1;
    double compile_timeout = 120, run_timeout = 600;
    bool json = false, no_cache = false, no_timing = false;
  };
  auto flags = std::make_shared<Flags>();
  app.add_option("problem", flags->problem, "Problem id or name (e.g. 1, 001_allreduce)")->required();
  app.add_option("solution", flags->solution, "A model's answer (markdown with a ```cuda and a ```json block), or a .cu file with --plan")->required();
  app.add_option("--plan", flags->plan, "The plan (JSON) of a .cu SOLUTION");
  add_setting_flags(app, flags->setting);
  app.add_option("--trials", flags->trials, "Correctness trials, each with fresh secret inputs (default 5)")->check(CLI::Range(1, 100));
  app.add_option("--drawn", flags->drawn,
                 "Shapes drawn under the size rules, one trial each (default 2; 0 when --dims pins a shape)")
      ->check(CLI::Range(0, 8));
  app.add_option("--arch", flags->arch, "NVRTC target, e.g. sm_90a, sm_100a (default: the GPU's, else sm_90a)");
  app.add_option("--device", flags->device,
                 "Who judges: auto (the GPU, else the simulated node), gpu, or sim (the PTX run on the "
                 "CPU: a verdict, no timing) (default auto)");
  app.add_option("--memory-model", flags->memory_model, kMemoryModelHelp);
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
    auto target = eval::choose_target(flags->arch, request.world, device_choice(flags->device));
    target.memory_model = memory_model_choice(flags->memory_model);
    if (target.sim && !flags->setting.dims_given()) request.dims = spec.test_dims;
    // --dims pins one shape; without it the trials also run at sizes drawn under the size rules.
    request.drawn_shapes = flags->drawn >= 0 ? flags->drawn
                           : flags->setting.dims_given() ? 0 : eval::kDefaultDrawnShapes;
    const auto outcome = eval::evaluate(candidate, request, target);
    if (flags->json) std::cout << outcome_json(spec, request, target, outcome).dump(2) << "\n";
    else print_outcome(spec, request, target, outcome);
    return results::status_ok(outcome.status) ? 0 : 1;
  };
}

}  // namespace pkb::cli
