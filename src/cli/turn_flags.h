// The refinement flags of `pkb run` (--turns, --stop-speedup, --max-tokens-total,
// --feedback-template) and what they turn into: the turn policy, the loaded feedback template and
// the fingerprint fields that make two runs comparable.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "src/cli/command.h"
#include "src/feedback/feedback.h"
#include "src/run/conversation.h"

namespace pkb::cli {

struct TurnFlags {
  int turns = 1;
  double stop_speedup = 0;
  long long max_tokens_total = 0;
  std::string feedback_template;  // empty: prompts/feedback.md
};

void add_turn_flags(CLI::App& app, TurnFlags& flags);

/// Checks the flags (throws pkb::UsageError naming the flag) and makes the policy;
/// `max_tokens` is --max-tokens.
run::TurnPolicy turn_policy(const TurnFlags& flags, int max_tokens);

/// The template of --feedback-template, else prompts/feedback.md ($PKB_PROMPTS_DIR when set).
/// Throws pkb::UsageError for a missing file, pkb::InputError for a bad one (naming it).
std::shared_ptr<const feedback::FeedbackTemplate> load_feedback_template(const TurnFlags& flags,
                                                                         std::string& sha256);

/// Adds turns (always) and, for T > 1, stop_speedup, max_tokens_total and the feedback
/// template's hash to `fingerprint`: one-turn runs keep the fingerprint they always had.
void add_turn_fingerprint(const TurnFlags& flags, const std::string& template_sha256,
                          nlohmann::json& fingerprint);

/// " --turns 3 --stop-speedup 1.5 ..." for run.json's command (empty for the defaults).
std::string turn_flags_text(const TurnFlags& flags);

}  // namespace pkb::cli
