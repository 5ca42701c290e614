// TurnFlags (see turn_flags.h).
#include "src/cli/turn_flags.h"

#include <cstdlib>
#include <filesystem>

#include "src/common/error.h"
#include "src/common/sha256.h"

namespace pkb::cli {

void add_turn_flags(CLI::App& app, TurnFlags& flags) {
  app.add_option("--turns", flags.turns,
                 "Refinement turns T: after each answer is judged, send the verdict back and "
                 "judge the new answer, up to T answers per sample (default 1)");
  app.add_option("--stop-speedup", flags.stop_speedup,
                 "With --turns: stop a sample once it is correct and at least S times the "
                 "baseline's speed (default: never stop early)");
  app.add_option("--max-tokens-total", flags.max_tokens_total,
                 "With --turns: output tokens one sample may spend over all its turns; the last "
                 "request's cap is lowered to what is left (default: no budget)");
  app.add_option("--feedback-template", flags.feedback_template,
                 "Feedback template FILE for refinement turns (default prompts/feedback.md)");
}

run::TurnPolicy turn_policy(const TurnFlags& flags, int max_tokens) {
  if (flags.turns < 1 || flags.turns > 100)
    throw UsageError("--turns " + std::to_string(flags.turns) + ": expected 1 to 100");
  if (flags.stop_speedup < 0)
    throw UsageError("--stop-speedup " + std::to_string(flags.stop_speedup) +
                     ": expected a speedup > 0");
  if (flags.max_tokens_total < 0)
    throw UsageError("--max-tokens-total " + std::to_string(flags.max_tokens_total) +
                     ": expected a positive token count");
  if (flags.turns == 1 && (flags.stop_speedup > 0 || flags.max_tokens_total > 0))
    throw UsageError(std::string(flags.stop_speedup > 0 ? "--stop-speedup" : "--max-tokens-total") +
                     ": only means something with --turns T > 1");
  run::TurnPolicy policy;
  policy.turns = flags.turns;
  policy.stop_speedup = flags.stop_speedup;
  policy.max_tokens_total = flags.max_tokens_total;
  policy.max_tokens = max_tokens;
  return policy;
}

std::shared_ptr<const feedback::FeedbackTemplate> load_feedback_template(const TurnFlags& flags,
                                                                         std::string& sha256) {
  std::filesystem::path path = flags.feedback_template;
  if (path.empty()) {
    path = feedback::default_template_path();
  } else if (!std::filesystem::is_regular_file(path)) {
    throw UsageError("--feedback-template " + flags.feedback_template + ": no such file");
  }
  auto loaded =
      std::make_shared<const feedback::FeedbackTemplate>(feedback::FeedbackTemplate::load(path));
  sha256 = sha256_hex(loaded->text());
  return loaded;
}

void add_turn_fingerprint(const TurnFlags& flags, const std::string& template_sha256,
                          nlohmann::json& fingerprint) {
  fingerprint["turns"] = flags.turns;
  if (flags.turns == 1) return;
  fingerprint["stop_speedup"] =
      flags.stop_speedup > 0 ? nlohmann::json(flags.stop_speedup) : nlohmann::json();
  fingerprint["max_tokens_total"] =
      flags.max_tokens_total > 0 ? nlohmann::json(flags.max_tokens_total) : nlohmann::json();
  fingerprint["feedback_template_sha256"] = template_sha256;
}

std::string turn_flags_text(const TurnFlags& flags) {
  std::string text;
  if (flags.turns != 1) text += " --turns " + std::to_string(flags.turns);
  if (flags.stop_speedup > 0)
    text += " --stop-speedup " + nlohmann::json(flags.stop_speedup).dump();
  if (flags.max_tokens_total > 0)
    text += " --max-tokens-total " + std::to_string(flags.max_tokens_total);
  if (!flags.feedback_template.empty()) text += " --feedback-template " + flags.feedback_template;
  return text;
}

}  // namespace pkb::cli
