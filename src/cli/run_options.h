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
#include "src/cli/problem_args.h"
#include "src/generate/generator.h"
#include "src/model/model_client.h"
#include "src/problem/problem_index.h"
#include "src/problem/spec.h"
#include "src/prompt/prompt.h"

namespace pkb::cli {

struct ModelFlags {
  std::string model, base_url, problems = "all", hardware = "h100_8";
  SettingFlags setting;  // --world, --dtype, --dims: each problem's own default world
  std::string template_path, temperature, reasoning, out, shard, model_table;
  int samples = 1, jobs = 8;
  int max_tokens = 0;  // 0 until resolved: --max-tokens, else the model table's default
  double timeout_s = 3600, stall_timeout_s = 120, connect_timeout_s = 10,
         first_byte_timeout_s = 1200;
  bool resume = false, no_stream = false;
  CLI::Option* problems_option = nullptr;    // to tell `--problems all` from no --problems
  CLI::Option* max_tokens_option = nullptr;  // to tell --max-tokens from the table's default
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
/// config (fingerprint and run_info without command). The model's rule in the model table
/// (--model-table, $PKB_MODEL_TABLE, the built-in one) gives the default --max-tokens, which is
/// written back to `flags`, and shapes every request; run.json's request_settings says how.
/// Throws pkb::UsageError naming the flag, pkb::InputError for a bad model table.
PreparedGeneration prepare_generation(const GlobalOptions& global, ModelFlags& flags,
                                      const std::atomic<bool>* cancel);

/// The shared part of the command line, for run.json: " --model M --problems ..." .
std::string model_flags_text(const ModelFlags& flags);

/// The prompt's setting for `spec`: --world, --dtype and --dims by resolve_setting, and the
/// machine described (--hardware).
prompt::PromptSetting prompt_setting(const problem::ProblemSpec& spec, const SettingFlags& flags,
                                     const std::string& hardware);

/// The prompt's files under `index`'s root, with `--template FILE` when given (pkb prompt, generate
/// and run). Throws pkb::UsageError "--template FILE: no such file".
prompt::PromptSources prompt_sources(const problem::ProblemIndex& index,
                                     const std::string& template_path);

}  // namespace pkb::cli
