// The flags `pkb generate` and `pkb run` share (model, sampling, problems, world, dtype, dims,
// jobs, --out, --resume, timeouts) and what they turn into: checked prompts, a model client and
// a GenerateConfig with its fingerprint. Everything is checked before anything is written.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "src/cli/command.h"
#include "src/generate/generator.h"
#include "src/model/model_client.h"
#include "src/problem/spec.h"

namespace pkb::cli {

struct ModelFlags {
  std::string model, base_url, problems = "all", dtype = "bf16", dims = "bench",
                               hardware = "h100_8";
  std::string template_path, temperature, reasoning, out, shard;
  int samples = 1, world = 0, max_tokens = 32000, jobs = 8;
  double timeout_s = 3600, stall_timeout_s = 120, connect_timeout_s = 10;
  bool resume = false, no_stream = false;
  CLI::Option* problems_option = nullptr;  // to tell `--problems all` from no --problems
};

/// Adds the shared flags; `out_required` for generate (run picks a default --out);
/// `default_model` non-empty makes --model optional.
void add_model_flags(CLI::App& app, ModelFlags& flags, bool out_required,
                     const std::string& default_model = "");

struct PreparedGeneration {
  model::ModelSpec spec;
  std::unique_ptr<model::ModelClient> client;
  generate::GenerateConfig config;
  std::vector<problem::ProblemSpec> specs;                // in the order of config.problems
  std::vector<std::map<std::string, std::int64_t>> dims;  // likewise
};

/// Checks every flag, builds the prompts and the client (a replay:DIR resolved against the
/// source tree too; without --problems only the problems DIR has answers for), and fills the
/// config (fingerprint and run_info without command). Throws pkb::UsageError naming the flag.
PreparedGeneration prepare_generation(const GlobalOptions& global, ModelFlags& flags,
                                      const std::atomic<bool>* cancel);

/// The shared part of the command line, for run.json: " --model M --problems ..." .
std::string model_flags_text(const ModelFlags& flags);

}  // namespace pkb::cli
