// The model table's part of generate and run. Warnings name the rule (and its file) so a user who
// disagrees knows which line of which table to change.
#include "src/cli/model_client_setup.h"

#include <spdlog/spdlog.h>

#include "src/cli/run_options.h"
#include "src/common/error.h"

namespace pkb::cli {

model::ModelRule model_rule(const ModelFlags& flags, const model::ModelSpec& spec) {
  if (spec.provider == model::Provider::replay) {
    if (!flags.model_table.empty())
      throw UsageError("--model-table: replay models read answers, not a server");
    model::ModelRule rule;  // sends nothing: only its default cap is used
    rule.origin = "none (replay)";
    return rule;
  }
  return model::model_table_for(flags.model_table).rule_for(spec);
}

int asked_max_tokens(const ModelFlags& flags, const model::ModelRule& rule) {
  if (flags.max_tokens_option == nullptr || flags.max_tokens_option->count() == 0)
    return model::default_max_tokens(rule);
  if (flags.max_tokens <= 0)
    throw UsageError("--max-tokens " + std::to_string(flags.max_tokens) +
                     ": expected a positive token count");
  return flags.max_tokens;
}

model::ClientOptions client_options(const ModelFlags& flags, const model::ModelRule& rule,
                                    const std::atomic<bool>* cancel) {
  model::ClientOptions options;
  options.stream = !flags.no_stream;
  options.timeouts = {static_cast<int>(flags.connect_timeout_s * 1000),
                      static_cast<int>(flags.stall_timeout_s * 1000),
                      static_cast<int>(flags.timeout_s * 1000),
                      static_cast<int>(flags.first_byte_timeout_s * 1000)};
  options.max_in_flight = flags.jobs;
  options.rule = rule;
  options.cancel = cancel;
  return options;
}

std::unique_ptr<model::ModelClient> connect_client(const model::ModelSpec& spec,
                                                   const std::string& key,
                                                   const model::ClientOptions& options) {
  std::string error;
  if (!model::http_can_connect(spec.base_url, options.timeouts.connect_ms, error))
    throw UsageError(spec.custom_base ? "--base-url " + spec.base_url + ": cannot connect: " + error
                                      : "--model " + spec.text + ": cannot reach " + spec.base_url +
                                            ": " + error);
  return std::make_unique<model::HttpModelClient>(spec, key, options);
}

void describe_requests(const ModelFlags& flags, const model::ModelSpec& spec,
                       const model::ClientOptions& options, nlohmann::json& run_info) {
  if (spec.provider == model::Provider::replay || !options.rule) {
    run_info["request_sent"] = nullptr;
    run_info["request_settings"] = nullptr;
    return;
  }
  const model::ModelRule& rule = *options.rule;
  model::ModelRequest example;
  example.user = "<prompt>";
  example.max_tokens = flags.max_tokens;
  if (!flags.temperature.empty()) example.temperature = std::stod(flags.temperature);
  example.reasoning = flags.reasoning;
  std::vector<std::string> notes;
  const model::WireSettings wire = model::resolve_wire(rule, spec.provider, example, {}, &notes);
  for (const std::string& note : notes)
    spdlog::warn("model: {}: {} (model table: {})", spec.text, note, rule.origin);
  run_info["request_sent"] = model::make_provider_api(spec)->body(example, wire, options.stream);
  nlohmann::json settings = model::to_json(wire);
  settings["rule"] = rule.origin;
  settings["changed"] = notes;
  // Whole replies (--no-stream) send nothing until done: only connect and overall apply.
  auto streamed = [&options](int ms) {
    return options.stream ? nlohmann::json(ms / 1000.0) : nlohmann::json();
  };
  settings["timeouts_s"] = {{"connect", options.timeouts.connect_ms / 1000.0},
                            {"first_byte", streamed(options.timeouts.first_byte_ms)},
                            {"stall", streamed(options.timeouts.stall_ms)},
                            {"overall", options.timeouts.overall_ms / 1000.0}};
  run_info["request_settings"] = settings;
}

}  // namespace pkb::cli
