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
  std::string arch;
  double compile_timeout_s = 120, run_timeout_s = 600;
  bool no_timing = false, no_cache = false;
};

void add_eval_flags(CLI::App& app, EvalFlags& flags);

/// Settings for `specs` (pointers kept: the specs must outlive the settings) with their dims,
/// the target probed for the largest world, the compile cache and the cancel flag. Without a GPU,
/// logs once, as `command`, that answers will be compiled and validated but not run.
run::EvalSettings eval_settings(const std::string& command, const EvalFlags& flags,
                                const std::filesystem::path& out,
                                const std::vector<const problem::ProblemSpec*>& specs,
                                const std::vector<std::map<std::string, std::int64_t>>& dims,
                                int max_world, const std::atomic<bool>* cancel);

/// The environment, hardware key and problem-set hash for run.json.
run::RunContext run_context(const std::vector<const problem::ProblemSpec*>& specs, int max_world);

/// " --trials 5 --compile-jobs 2 ..." for run.json's command.
std::string eval_flags_text(const EvalFlags& flags);

}  // namespace pkb::cli
