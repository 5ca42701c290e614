// How `pkb generate` and `pkb run` talk to an HTTP model: the model's rule in the model table
// (--model-table, $PKB_MODEL_TABLE, the built-in one), the default --max-tokens it gives, one
// warning for each ask it changes, the deadlines from the flags, the check that the server takes
// connections at all, and what run.json records of it (request_settings, request_sent).
#pragma once

#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "src/model/model_client.h"
#include "src/model/model_table.h"

namespace pkb::cli {

struct ModelFlags;

/// The rule for `spec`; throws pkb::UsageError for a missing table file, pkb::InputError for a bad
/// one. Replay models have no rule: they get a catch-all that changes nothing.
model::ModelRule model_rule(const ModelFlags& flags, const model::ModelSpec& spec);

/// --max-tokens when given (checked positive), else the rule's default.
int asked_max_tokens(const ModelFlags& flags, const model::ModelRule& rule);

model::ClientOptions client_options(const ModelFlags& flags, const model::ModelRule& rule,
                                    const std::atomic<bool>* cancel);

/// The client, after checking that the server takes a connection (throws pkb::UsageError naming
/// --base-url or --model when it does not).
std::unique_ptr<model::ModelClient> connect_client(const model::ModelSpec& spec,
                                                   const std::string& key,
                                                   const model::ClientOptions& options);

/// run.json's request_settings and request_sent for a first turn, warning once for each ask the
/// rule changes (a cap lowered, a temperature or reasoning level not sent).
void describe_requests(const ModelFlags& flags, const model::ModelSpec& spec,
                       const model::ClientOptions& options, nlohmann::json& run_info);

}  // namespace pkb::cli
