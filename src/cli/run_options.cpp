// Moved out of cmd_generate.cpp so that `pkb run` checks its flags in the same order with the same
// messages. Temperature ranges differ by provider (OpenAI and Gemini 0-2, Anthropic 0-1).
#include "src/cli/run_options.h"

#include <spdlog/spdlog.h>

#include <sstream>

#include "src/cli/model_client_setup.h"
#include "src/cli/problem_args.h"
#include "src/cli/problem_list.h"
#include "src/common/error.h"
#include "src/common/sha256.h"
#include "src/generate/replay_client.h"
#include "src/problem/dims.h"
#include "src/results/durable_file.h"
#include "src/shard/shard.h"

namespace pkb::cli {
namespace {

void check_positive(const std::string& flag, double value, const std::string& what) {
  if (!(value > 0)) {
    std::ostringstream text;
    text << value;
    throw UsageError(flag + " " + text.str() + ": expected " + what);
  }
}

void check_temperature(const ModelFlags& flags, const model::ModelSpec& spec) {
  if (flags.temperature.empty()) return;
  double value = 0;
  try {
    std::size_t used = 0;
    value = std::stod(flags.temperature, &used);
    if (used != flags.temperature.size()) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw UsageError("--temperature " + flags.temperature + ": expected a number");
  }
  const double max = spec.provider == model::Provider::anthropic ? 1.0 : 2.0;
  if (value < 0 || value > max)
    throw UsageError("--temperature " + flags.temperature + ": " +
                     std::string(model::provider_name(spec.provider)) + " accepts 0 to " +
                     (max == 1.0 ? "1" : "2"));
}

void build_prompts(const problem::ProblemIndex& index, const ModelFlags& flags,
                   std::string& template_sha256, PreparedGeneration& prepared) {
  const auto keys = parse_problem_list(index, flags.problems);
  const auto sources = prompt_sources(index, flags.template_path);
  template_sha256 = sha256_hex(results::read_file(sources.template_path));
  for (const auto& key : keys) {
    auto spec = index.load(key);
    const prompt::PromptSetting setting = prompt_setting(spec, flags.setting, flags.hardware);
    prepared.config.problems.push_back({spec.key, spec.id, setting.world, setting.dtype,
                                        prompt::build_prompt(spec, setting, sources)});
    prepared.dims.push_back(setting.dims);
    prepared.specs.push_back(std::move(spec));
  }
}

// replay:DIR answers only some problems: without --problems the run is those; with --problems
// every named problem must have answers.
void keep_replayed(const ModelFlags& flags, const generate::ReplayClient& replay,
                   const std::string& dir, PreparedGeneration& prepared) {
  PreparedGeneration kept;
  std::string missing;
  for (std::size_t index = 0; index < prepared.specs.size(); ++index) {
    const auto& problem = prepared.config.problems[index];
    if (replay.covers(problem.key, problem.prompt.sha256)) {
      kept.config.problems.push_back(problem);
      kept.specs.push_back(prepared.specs[index]);
      kept.dims.push_back(prepared.dims[index]);
    } else {
      missing += (missing.empty() ? "" : ", ") + problem.key;
    }
  }
  if (missing.empty()) return;
  const bool explicit_problems = flags.problems_option && flags.problems_option->count() > 0;
  if (explicit_problems)
    throw UsageError("--problems " + flags.problems + ": replay:" + dir + " has no answers for " +
                     missing);
  if (kept.specs.empty())
    throw UsageError("--model replay:" + dir + ": no answers for any problem");
  spdlog::info("replay: {} has answers for {} of {} problems; running those (--problems chooses)",
               dir, kept.specs.size(), prepared.specs.size());
  prepared.config.problems = std::move(kept.config.problems);
  prepared.specs = std::move(kept.specs);
  prepared.dims = std::move(kept.dims);
}

// One source for the help text: the model-name code knows each provider's key and base URL.
constexpr model::Provider kHttpProviders[] = {
    model::Provider::openai, model::Provider::openai_responses, model::Provider::anthropic,
    model::Provider::gemini, model::Provider::together,         model::Provider::openai_compat};

std::string key_variables_text() {
  std::string text;
  for (model::Provider provider : kHttpProviders) {
    if (provider == model::Provider::openai_responses) continue;  // the same key as openai
    text += (text.empty() ? "" : "; ") + model::api_key_env_names(provider) + " (" +
            std::string(model::provider_name(provider)) +
            (provider == model::Provider::openai ? ", openai-responses" : "") +
            (provider == model::Provider::openai_compat ? ", optional" : "") + ")";
  }
  return text;
}

std::string base_url_text() {
  std::string text;
  for (model::Provider provider : kHttpProviders)
    text += (text.empty() ? "" : "; ") + std::string(model::provider_name(provider)) + " " +
            std::string(model::base_url_convention(provider));
  return text + " (e.g. http://localhost:4000/v1beta for gemini through a proxy)";
}

}  // namespace

prompt::PromptSetting prompt_setting(const problem::ProblemSpec& spec, const SettingFlags& flags,
                                     const std::string& hardware) {
  ProblemSetting resolved = resolve_setting(spec, flags);
  prompt::PromptSetting setting;
  setting.world = resolved.world;
  setting.dtype = resolved.dtype;
  setting.dims = std::move(resolved.dims);
  setting.hardware = hardware;
  return setting;
}

prompt::PromptSources prompt_sources(const problem::ProblemIndex& index,
                                     const std::string& template_path) {
  auto sources = prompt::default_sources(index.root());
  if (!template_path.empty()) {
    if (!std::filesystem::is_regular_file(template_path))
      throw UsageError("--template " + template_path + ": no such file");
    sources.template_path = template_path;
  }
  return sources;
}

void add_model_flags(CLI::App& app, ModelFlags& flags, bool out_required,
                     const std::string& default_model) {
  flags.model = default_model;
  auto* model = app.add_option(
      "--model", flags.model,
      "PROVIDER:MODEL: openai:, openai-responses:, anthropic:, gemini:, together:ORG/MODEL, "
      "openai-compat: (with --base-url) or replay:DIR" +
          (default_model.empty() ? std::string() : " (default " + default_model + ")") +
          ". The key comes from " + key_variables_text());
  if (default_model.empty()) model->required();
  app.add_option("--base-url", flags.base_url,
                 "Server URL BASE: required for openai-compat (e.g. http://localhost:8000/v1), "
                 "else it replaces the provider's own. " +
                     base_url_text());
  app.add_option("--model-table", flags.model_table,
                 "Model table FILE whose rules go before the built-in ones (default "
                 "$PKB_MODEL_TABLE; docs/MODELS.md)");
  flags.problems_option = app.add_option("--problems", flags.problems,
                                         "all, or ids, ranges and names: 1-8,13 (default all)");
  app.add_option("--samples", flags.samples, "Samples per problem K (default 1)");
  add_setting_flags(app, flags.setting);
  app.add_option("--hardware", flags.hardware,
                 "Machine described in the prompt: h100_8, h200_8 or b200_8 (default h100_8)");
  app.add_option("--template", flags.template_path,
                 "Prompt template FILE (default prompts/task.md)");
  app.add_option("--temperature", flags.temperature,
                 "Sampling temperature T (default: not sent, the provider's)");
  flags.max_tokens_option =
      app.add_option("--max-tokens", flags.max_tokens,
                     "Output cap N, reasoning included (default: the model table's, 32000 for "
                     "most models; lowered to the model's cap)");
  app.add_option("--reasoning", flags.reasoning,
                 "Reasoning effort: low, medium or high (default: not sent)");
  app.add_option("--jobs", flags.jobs, "Requests in flight at once J (default 8)");
  auto* out = app.add_option(
      "--out", flags.out,
      out_required ? "Results directory DIR (created; must be new or empty unless --resume)"
                   : "Results directory DIR (default results/MODEL-DATE-ID; new or empty unless "
                     "--resume)");
  if (out_required) out->required();
  app.add_option("--shard", flags.shard, shard::kShardHelp);
  app.add_flag("--resume", flags.resume,
               "Continue a run in --out: ask only for samples that never got an answer");
  app.add_flag("--no-stream", flags.no_stream,
               "Ask for whole replies instead of streams (for servers that mishandle SSE)");
  app.add_option("--timeout", flags.timeout_s, "Longest one request may take, in s (default 3600)");
  app.add_option("--first-byte-timeout", flags.first_byte_timeout_s,
                 "Longest a stream may wait for its first byte while the model thinks, in s "
                 "(default 1200)");
  app.add_option("--stall-timeout", flags.stall_timeout_s,
                 "Longest a stream may send nothing once it has begun, in s (default 120)");
  app.add_option("--connect-timeout", flags.connect_timeout_s,
                 "Longest a connection may take, in s (default 10)");
}

std::string model_flags_text(const ModelFlags& flags) {
  std::string text = " --model " + flags.model;
  if (!flags.base_url.empty()) text += " --base-url " + flags.base_url;
  if (!flags.model_table.empty()) text += " --model-table " + flags.model_table;
  text += " --problems " + flags.problems + " --samples " + std::to_string(flags.samples);
  if (flags.setting.world > 0) text += " --world " + std::to_string(flags.setting.world);
  text += " --dtype " + flags.setting.dtype + " --dims " + flags.setting.dims + " --hardware " +
          flags.hardware;
  if (!flags.template_path.empty()) text += " --template " + flags.template_path;
  if (!flags.temperature.empty()) text += " --temperature " + flags.temperature;
  if (!flags.reasoning.empty()) text += " --reasoning " + flags.reasoning;
  text += " --max-tokens " + std::to_string(flags.max_tokens) + " --jobs " +
          std::to_string(flags.jobs) + " --out " + flags.out;
  if (!flags.shard.empty()) text += " --shard " + flags.shard;
  return text + (flags.resume ? " --resume" : "") + (flags.no_stream ? " --no-stream" : "");
}

PreparedGeneration prepare_generation(const GlobalOptions& global, ModelFlags& flags,
                                      const std::atomic<bool>* cancel) {
  check_positive("--samples", flags.samples, "a positive number of samples");
  check_positive("--jobs", flags.jobs, "a positive number of requests");
  check_positive("--timeout", flags.timeout_s, "a positive number of seconds");
  check_positive("--first-byte-timeout", flags.first_byte_timeout_s,
                 "a positive number of seconds");
  check_positive("--stall-timeout", flags.stall_timeout_s, "a positive number of seconds");
  check_positive("--connect-timeout", flags.connect_timeout_s, "a positive number of seconds");
  if (!flags.reasoning.empty() && flags.reasoning != "low" && flags.reasoning != "medium" &&
      flags.reasoning != "high")
    throw UsageError("--reasoning " + flags.reasoning + ": expected low, medium or high");
  PreparedGeneration prepared;
  if (!flags.shard.empty()) prepared.config.shard = shard::parse_shard(flags.shard);
  prepared.spec = model::parse_model_name(flags.model, flags.base_url);
  const model::ModelSpec& spec = prepared.spec;
  check_temperature(flags, spec);
  const model::ModelRule rule = model_rule(flags, spec);
  flags.max_tokens = asked_max_tokens(flags, rule);
  const std::string key = model::api_key_from_env(spec);
  const auto index = open_index(global);
  std::string template_sha256;
  build_prompts(index, flags, template_sha256, prepared);

  const model::ClientOptions options = client_options(flags, rule, cancel);
  if (spec.provider == model::Provider::replay) {
    const auto dir = generate::resolve_replay_dir(spec.model, index.root().parent_path());
    auto replay = std::make_unique<generate::ReplayClient>(dir);
    keep_replayed(flags, *replay, spec.model, prepared);
    prepared.client = std::move(replay);
  } else {
    prepared.client = connect_client(spec, key, options);
  }

  auto& config = prepared.config;
  config.model = spec;
  config.params.max_tokens = flags.max_tokens;
  if (!flags.temperature.empty()) config.params.temperature = flags.temperature;
  config.params.reasoning = flags.reasoning;
  config.samples = flags.samples;
  config.jobs = flags.jobs;
  config.out = flags.out;
  config.resume = flags.resume;
  config.cancel = cancel;
  config.fingerprint = {{"model", spec.text},
                        {"endpoint", spec.custom_base ? spec.base_url : ""},
                        {"max_tokens", flags.max_tokens},
                        {"temperature", flags.temperature},
                        {"reasoning", flags.reasoning},
                        {"world", flags.setting.world},
                        {"dtype", flags.setting.dtype},
                        {"dims", flags.setting.dims},
                        {"hardware", flags.hardware},
                        {"template_sha256", template_sha256}};
  config.run_info = {{"model",
                      {{"name", spec.text},
                       {"provider", model::provider_name(spec.provider)},
                       {"api", model::api_name(spec.api)},
                       {"model", spec.model},
                       {"base_url", spec.base_url}}},
                     {"stream", options.stream},
                     {"hardware", flags.hardware}};
  describe_requests(flags, spec, options, config.run_info);
  return prepared;
}

}  // namespace pkb::cli
