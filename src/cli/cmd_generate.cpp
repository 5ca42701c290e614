// `pkb generate --model M --out DIR [--problems LIST] [--samples K] [--world W] [--dtype D] ...`:
// ask a model for K samples of each problem's prompt and write the results layout of DESIGN.md §6.
// Every flag, the key, the server and the output directory are checked before anything is written.
#include <spdlog/spdlog.h>

#include <csignal>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "src/cli/command.h"
#include "src/cli/generate_progress.h"
#include "src/cli/problem_args.h"
#include "src/cli/problem_list.h"
#include "src/common/error.h"
#include "src/common/sha256.h"
#include "src/generate/durable_file.h"
#include "src/generate/generator.h"
#include "src/generate/replay_client.h"
#include "src/model/model_client.h"
#include "src/problem/dims.h"

namespace pkb::cli {
namespace {

// Set by SIGINT; the one global a signal handler needs. Workers stop taking samples, requests in
// flight are abandoned (and asked again by --resume), and what is recorded stays recorded.
std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) { g_interrupted = true; }

struct Flags {
  std::string model, base_url, problems = "all", dtype = "bf16", dims = "bench",
                               hardware = "h100_8";
  std::string template_path, temperature, reasoning, out;
  int samples = 1, world = 0, max_tokens = 32000, jobs = 8;
  double timeout_s = 3600, stall_timeout_s = 120, connect_timeout_s = 10;
  bool resume = false, no_stream = false;
};

void check_positive(const std::string& flag, double value, const std::string& what) {
  if (!(value > 0)) {
    std::ostringstream text;
    text << value;
    throw UsageError(flag + " " + text.str() + ": expected " + what);
  }
}

// Temperature ranges differ by provider (OpenAI and Gemini 0-2, Anthropic 0-1).
void check_temperature(const Flags& flags, const model::ModelSpec& spec) {
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

std::vector<generate::ProblemPrompt> build_prompts(const GlobalOptions& global, const Flags& flags,
                                                   std::string& template_sha256) {
  const auto index = open_index(global);
  const auto keys = parse_problem_list(index, flags.problems);
  auto sources = prompt::default_sources(index.root());
  if (!flags.template_path.empty()) {
    if (!std::filesystem::is_regular_file(flags.template_path))
      throw UsageError("--template " + flags.template_path + ": no such file");
    sources.template_path = flags.template_path;
  }
  template_sha256 = sha256_hex(generate::read_file(sources.template_path));
  std::vector<generate::ProblemPrompt> prompts;
  for (const auto& key : keys) {
    const auto spec = index.load(key);
    prompt::PromptSetting setting;
    setting.hardware = flags.hardware;
    if (flags.world > 0) {
      check_world(spec, flags.world);
      setting.world = flags.world;
    } else {
      setting.world = spec.world_sizes.back();
    }
    setting.dtype = parse_run_dtype(spec, flags.dtype);
    setting.dims = problem::select_dims(spec, flags.dims, problem::DimsBase::bench);
    prompts.push_back({spec.key, spec.id, setting.world, setting.dtype,
                       prompt::build_prompt(spec, setting, sources)});
  }
  return prompts;
}

std::string command_text(const Flags& flags) {
  std::string text = "pkb generate --model " + flags.model;
  if (!flags.base_url.empty()) text += " --base-url " + flags.base_url;
  text += " --problems " + flags.problems + " --samples " + std::to_string(flags.samples);
  if (flags.world > 0) text += " --world " + std::to_string(flags.world);
  text += " --dtype " + flags.dtype + " --dims " + flags.dims + " --hardware " + flags.hardware;
  if (!flags.template_path.empty()) text += " --template " + flags.template_path;
  if (!flags.temperature.empty()) text += " --temperature " + flags.temperature;
  if (!flags.reasoning.empty()) text += " --reasoning " + flags.reasoning;
  text += " --max-tokens " + std::to_string(flags.max_tokens) + " --jobs " +
          std::to_string(flags.jobs) + " --out " + flags.out;
  return text + (flags.resume ? " --resume" : "") + (flags.no_stream ? " --no-stream" : "");
}

}  // namespace

std::function<int()> setup_generate(CLI::App& app, const GlobalOptions& global) {
  auto flags = std::make_shared<Flags>();
  app.add_option(
         "--model", flags->model,
         "PROVIDER:MODEL: openai:, openai-responses:, anthropic:, gemini:, together:ORG/MODEL, "
         "openai-compat: (with --base-url) or replay:DIR")
      ->required();
  app.add_option("--base-url", flags->base_url,
                 "Server URL for openai-compat (e.g. http://localhost:8000/v1), or another base "
                 "for a hosted provider");
  app.add_option("--problems", flags->problems,
                 "all, or ids, ranges and names: 1-8,13 (default all)");
  app.add_option("--samples", flags->samples, "Samples per problem K (default 1)");
  app.add_option("--world", flags->world,
                 "World size W (default: the largest each problem allows)");
  app.add_option("--dtype", flags->dtype, "Run precision P: bf16, fp16 or fp32 (default bf16)");
  app.add_option("--dims", flags->dims, "Sizes: test, bench or NAME=SIZE,... (default bench)");
  app.add_option("--hardware", flags->hardware,
                 "Machine described in the prompt: h100_8, h200_8 or b200_8 (default h100_8)");
  app.add_option("--template", flags->template_path,
                 "Prompt template FILE (default prompts/task.md)");
  app.add_option("--temperature", flags->temperature,
                 "Sampling temperature T (default: not sent, the provider's)");
  app.add_option("--max-tokens", flags->max_tokens,
                 "Output cap N, reasoning included (default 32000)");
  app.add_option("--reasoning", flags->reasoning,
                 "Reasoning effort: low, medium or high (default: not sent)");
  app.add_option("--jobs", flags->jobs, "Requests in flight at once J (default 8)");
  app.add_option("--out", flags->out,
                 "Results directory DIR (created; must be new or empty unless --resume)")
      ->required();
  app.add_flag("--resume", flags->resume,
               "Continue a run in --out: ask only for samples that never got an answer");
  app.add_flag("--no-stream", flags->no_stream,
               "Ask for whole replies instead of streams (for servers that mishandle SSE)");
  app.add_option("--timeout", flags->timeout_s,
                 "Longest one request may take, in s (default 3600)");
  app.add_option("--stall-timeout", flags->stall_timeout_s,
                 "Longest a stream may send nothing, in s (default 120)");
  app.add_option("--connect-timeout", flags->connect_timeout_s,
                 "Longest a connection may take, in s (default 10)");
  return [&global, flags] {
    check_positive("--samples", flags->samples, "a positive number of samples");
    check_positive("--jobs", flags->jobs, "a positive number of requests");
    check_positive("--max-tokens", flags->max_tokens, "a positive token count");
    check_positive("--timeout", flags->timeout_s, "a positive number of seconds");
    check_positive("--stall-timeout", flags->stall_timeout_s, "a positive number of seconds");
    check_positive("--connect-timeout", flags->connect_timeout_s, "a positive number of seconds");
    if (!flags->reasoning.empty() && flags->reasoning != "low" && flags->reasoning != "medium" &&
        flags->reasoning != "high")
      throw UsageError("--reasoning " + flags->reasoning + ": expected low, medium or high");
    const model::ModelSpec spec = model::parse_model_name(flags->model, flags->base_url);
    check_temperature(*flags, spec);
    const std::string key = model::api_key_from_env(spec);
    std::string template_sha256;
    auto prompts = build_prompts(global, *flags, template_sha256);

    model::ClientOptions options;
    options.stream = !flags->no_stream;
    options.timeouts = {static_cast<int>(flags->connect_timeout_s * 1000),
                        static_cast<int>(flags->stall_timeout_s * 1000),
                        static_cast<int>(flags->timeout_s * 1000)};
    options.max_in_flight = flags->jobs;
    options.cancel = &g_interrupted;
    std::unique_ptr<model::ModelClient> client;
    if (spec.provider == model::Provider::replay) {
      client = std::make_unique<generate::ReplayClient>(spec.model);
    } else {
      std::string error;
      if (!model::http_can_connect(spec.base_url, options.timeouts.connect_ms, error))
        throw UsageError(spec.custom_base
                             ? "--base-url " + spec.base_url + ": cannot connect: " + error
                             : "--model " + spec.text + ": cannot reach " + spec.base_url + ": " +
                                   error);
      client = std::make_unique<model::HttpModelClient>(spec, key, options);
    }

    generate::GenerateConfig config;
    config.model = spec;
    config.params.max_tokens = flags->max_tokens;
    if (!flags->temperature.empty()) config.params.temperature = flags->temperature;
    config.params.reasoning = flags->reasoning;
    config.problems = std::move(prompts);
    config.samples = flags->samples;
    config.jobs = flags->jobs;
    config.out = flags->out;
    config.resume = flags->resume;
    config.cancel = &g_interrupted;
    config.fingerprint = {{"model", spec.text},
                          {"endpoint", spec.custom_base ? spec.base_url : ""},
                          {"max_tokens", flags->max_tokens},
                          {"temperature", flags->temperature},
                          {"reasoning", flags->reasoning},
                          {"world", flags->world},
                          {"dtype", flags->dtype},
                          {"dims", flags->dims},
                          {"hardware", flags->hardware},
                          {"template_sha256", template_sha256}};
    model::ModelRequest example;
    example.user = "<prompt>";
    example.max_tokens = flags->max_tokens;
    if (!flags->temperature.empty()) example.temperature = std::stod(flags->temperature);
    example.reasoning = flags->reasoning;
    config.run_info = {
        {"command", command_text(*flags)},
        {"model",
         {{"name", spec.text},
          {"provider", model::provider_name(spec.provider)},
          {"api", model::api_name(spec.api)},
          {"model", spec.model},
          {"base_url", spec.base_url}}},
        {"stream", options.stream},
        {"request_sent", spec.provider == model::Provider::replay
                             ? nlohmann::json()
                             : model::make_provider_api(spec)->body(example, options.stream)},
        {"hardware", flags->hardware}};

    g_interrupted = false;
    std::signal(SIGINT, on_interrupt);
    generate::GenerateStats stats;
    generate::GenerateSummary summary;
    {
      GenerateProgress progress(stats, [&client] { return client->in_flight(); });
      summary = generate::run_generation(config, *client, stats);
    }
    std::signal(SIGINT, SIG_DFL);
    spdlog::info(
        "generate: {} samples in {}: {} generated, {} format errors, {} api errors, {} resumed, {} "
        "from the cache",
        summary.total, flags->out, summary.generated, summary.format_errors, summary.api_errors,
        summary.resumed, summary.cached);
    if (summary.cancelled) {
      std::fprintf(stderr,
                   "pkb: interrupted: %s holds every sample finished so far; --resume continues\n",
                   flags->out.c_str());
      return 130;
    }
    if (summary.api_errors > 0)
      throw WorkFailed("generate: " + std::to_string(summary.api_errors) + " of " +
                       std::to_string(summary.total) + " samples got no answer (api_error in " +
                       flags->out + "/samples.jsonl); pkb generate --resume asks for them again");
    return 0;
  };
}

}  // namespace pkb::cli
