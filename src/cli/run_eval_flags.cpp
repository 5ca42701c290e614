// libtorch's version comes from its header, so it names the library pkb was built against.
#include "src/cli/run_eval_flags.h"

#include <spdlog/spdlog.h>
#include <torch/csrc/api/include/torch/version.h>

#include "harness/device_probe.h"
#include "src/common/error.h"
#include "src/run/environment.h"

namespace pkb::cli {

void add_eval_flags(CLI::App& app, EvalFlags& flags) {
  app.add_option("--trials", flags.trials,
                 "Correctness trials per sample, each with fresh secret inputs (default 5)")
      ->check(CLI::Range(1, 100));
  app.add_option("--drawn", flags.drawn,
                 "Shapes per sample drawn under the size rules, one trial each (default 2; 0 when "
                 "--dims pins a shape)")
      ->check(CLI::Range(0, 8));
  app.add_option("--compile-jobs", flags.compile_jobs,
                 "NVRTC compiles in parallel C (default 2); GPU runs are always one at a time")
      ->check(CLI::Range(1, 256));
  app.add_option("--arch", flags.arch,
                 "NVRTC target, e.g. sm_90a, sm_100a (default: the GPU's, else sm_90a)");
  app.add_option("--compile-timeout", flags.compile_timeout_s,
                 "Seconds before NVRTC is stopped (default 120)")
      ->check(CLI::PositiveNumber);
  app.add_option("--run-timeout", flags.run_timeout_s,
                 "Seconds before a GPU worker is killed (default 600)")
      ->check(CLI::PositiveNumber);
  app.add_option("--device", flags.device,
                 "Who judges: auto (the GPUs, else the simulated node), gpu, or sim (the candidate's "
                 "PTX run on the CPU: verdicts, no timing) (default auto)");
  app.add_option("--memory-model", flags.memory_model, kMemoryModelHelp);
  app.add_flag("--no-timing", flags.no_timing, "Check correctness only (no speedups)");
  app.add_flag("--no-cache", flags.no_cache, "Compile even when the compile cache has the source");
}

run::EvalSettings eval_settings(const std::string& command, const EvalFlags& flags,
                                const std::filesystem::path& out,
                                const std::vector<const problem::ProblemSpec*>& specs,
                                const std::vector<std::map<std::string, std::int64_t>>& dims,
                                int max_world, const std::atomic<bool>* cancel, bool dims_given) {
  run::EvalSettings settings;
  settings.out = out;
  for (std::size_t index = 0; index < specs.size(); ++index) {
    settings.specs[specs[index]->key] = specs[index];
    settings.dims[specs[index]->key] = dims[index];
  }
  settings.trials = flags.trials;
  settings.drawn_shapes = flags.drawn >= 0 ? flags.drawn : dims_given ? 0 : eval::kDefaultDrawnShapes;
  settings.time = !flags.no_timing;
  settings.compile_jobs = flags.compile_jobs;
  settings.compile_timeout_s = flags.compile_timeout_s;
  settings.run_timeout_s = flags.run_timeout_s;
  if (!flags.no_cache) settings.cache_dir = eval::default_cache_dir();
  settings.target = eval::choose_target(flags.arch, max_world, device_choice(flags.device));
  settings.target.memory_model = memory_model_choice(flags.memory_model);
  settings.cancel = cancel;
  if (settings.target.sim) {
    if (!dims_given)
      for (const auto* spec : specs) settings.dims[spec->key] = spec->test_dims;
    spdlog::info("{}: {}: answers are judged on the simulated node{} (verdicts only; nothing is timed)",
                 command, settings.target.no_gpu_reason, dims_given ? "" : " at each problem's test dims");
  } else if (!settings.target.gpu) {
    spdlog::info("{}: {}: answers are compiled and their plans validated, not run (status compiled)",
                 command, settings.target.no_gpu_reason);
  }
  return settings;
}

const char* const kMemoryModelHelp =
    "How the simulated node judges memory ordering: ptx (every access checked against the PTX memory "
    "model; a data race between threads, blocks or ranks is incorrect) or sc (sequentially consistent, "
    "no race check) (default ptx)";

std::string memory_model_choice(const std::string& model) {
  if (model != "ptx" && model != "sc")
    throw UsageError("--memory-model " + model + ": expected ptx or sc");
  return model;
}

eval::DeviceChoice device_choice(const std::string& device) {
  const auto choice = eval::parse_device_choice(device);
  if (!choice) throw UsageError("--device " + device + ": expected auto, gpu or sim");
  return *choice;
}

run::RunContext run_context(const std::vector<const problem::ProblemSpec*>& specs, int max_world,
                            const eval::Target& target) {
  const auto machine = harness::probe_machine();
  run::RunContext context;
  context.environment = run::environment_json(machine, TORCH_VERSION);
  context.hardware_key = run::hardware_key(machine, max_world, target.sim);
  context.problem_set = run::problem_set_json(specs);
  return context;
}

std::string eval_flags_text(const EvalFlags& flags) {
  std::string text = " --trials " + std::to_string(flags.trials) + " --compile-jobs " +
                     std::to_string(flags.compile_jobs);
  if (flags.drawn >= 0) text += " --drawn " + std::to_string(flags.drawn);
  if (!flags.arch.empty()) text += " --arch " + flags.arch;
  if (flags.device != "auto") text += " --device " + flags.device;
  if (flags.memory_model != "ptx") text += " --memory-model " + flags.memory_model;
  return text + (flags.no_timing ? " --no-timing" : "") + (flags.no_cache ? " --no-cache" : "");
}

}  // namespace pkb::cli
