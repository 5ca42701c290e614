// make_feedback: judge the record, then fill the template's names.
#include "src/feedback/feedback.h"

#include "src/common/error.h"
#include "src/feedback/redact.h"
#include "src/feedback/status_details.h"

namespace pkb::feedback {
namespace {

constexpr std::size_t kMaxWarnings = 10;
constexpr std::size_t kMaxLineChars = 300;

// record.warnings: advice that did not change the status (e.g. a peer access without a
// system-scope fence), one "- " line each.
std::string warnings_text(const results::Record& record) {
  if (!record.evaluation) return "";
  std::string out;
  std::size_t shown = 0;
  for (const auto& warning : record.evaluation->warnings) {
    if (shown++ == kMaxWarnings) {
      out += "- (more warnings not shown)\n";
      break;
    }
    out += clip_line("- " + redact_paths(warning), kMaxLineChars) + "\n";
  }
  return out;
}

}  // namespace

Feedback make_feedback(const results::Record& record, const std::string& compile_log,
                       const FeedbackTemplate& tmpl, int next_turn, int turns) {
  if (next_turn < 1 || next_turn >= turns)
    throw Error("feedback: turn " + std::to_string(next_turn) + " is outside 1.." +
                std::to_string(turns - 1) + " (feedback starts a turn after the first)");
  const Judgement judgement = judge_record(record, compile_log);
  const prompt::TemplateValues values = {
      {"status", judgement.status},
      {"verdict", judgement.verdict},
      {"details", judgement.details},
      {"warnings", warnings_text(record)},
      {"scope", judgement.scope},
      {"note", judgement.note},
      {"problem", record.problem},
      // User-facing turn numbers are 1-based (TURNS): the answer asked for is number next_turn+1.
      {"turn", std::to_string(next_turn + 1)},
      {"turns", std::to_string(turns)},
      {"turns_left", std::to_string(turns - next_turn)},
      {"last_turn", next_turn + 1 == turns ? "yes" : ""},
      {"correct", judgement.status == "correct" ? "yes" : ""},
  };
  return {tmpl.render(values), judgement.scope, judgement.note};
}

}  // namespace pkb::feedback
