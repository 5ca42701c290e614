// The evaluation flags `pkb run` and `pkb evaluate` share (trials, compile jobs, timeouts, arch,
// timing, cache), and the settings and run.json context they lead to on this machine.
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "src/cli/command.h"
#include "src/run/evaluator.h"
#include "src/run/run_json.h"

namespace pkb::cli {

struct EvalFlags {
  int trials = 5, compile_jobs = 2;
  int drawn = -1;  // --drawn N: shapes drawn under the size rules; -1: 2, or 0 when --dims is given
  std::string arch;
  std::string device = "auto";  // --device auto|gpu|sim
  std::string memory_model = "ptx";  // --memory-model ptx|sc
  double compile_timeout_s = 120, run_timeout_s = 600;
  bool no_timing = false, no_cache = false;
};

void add_eval_flags(CLI::App& app, EvalFlags& flags);

/// Settings for `specs` (pointers kept: the specs must outlive the settings) with their dims,
/// the target probed for the largest world, the compile cache and the cancel flag. Where the
/// simulated node judges and `dims_given` is false, every problem is judged at its test dims
/// instead. Logs once, as `command`, where answers will be judged.
run::EvalSettings eval_settings(const std::string& command, const EvalFlags& flags,
                                const std::filesystem::path& out,
                                const std::vector<const problem::ProblemSpec*>& specs,
                                const std::vector<std::map<std::string, std::int64_t>>& dims,
                                int max_world, const std::atomic<bool>* cancel, bool dims_given);

/// --device auto|gpu|sim as a choice (UsageError naming the flag for anything else).
eval::DeviceChoice device_choice(const std::string& device);
/// --memory-model: the help line, and the value checked (UsageError naming the flag).
extern const char* const kMemoryModelHelp;
std::string memory_model_choice(const std::string& model);

/// The environment, hardware key and problem-set hash for run.json (`target`: who judges).
run::RunContext run_context(const std::vector<const problem::ProblemSpec*>& specs, int max_world,
                            const eval::Target& target);

/// " --trials 5 --compile-jobs 2 ..." for run.json's command.
std::string eval_flags_text(const EvalFlags& flags);

}  // namespace pkb::cli
