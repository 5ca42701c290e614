// Refinement turns (`pkb run --turns T`): after a sample's turn is evaluated, its verdict goes back
// to the model as feedback (src/feedback) with the conversation so far, and the new answer is
// evaluated as the next turn. Each turn is its own record; the record says whether the
// conversation goes on (`feedback`, the file sent as the next user message) or why it ended
// (`conversation.end`), so --resume can continue it with the same history.
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "src/feedback/feedback.h"
#include "src/generate/generator.h"
#include "src/generate/sample_generator.h"
#include "src/results/samples_file.h"
#include "src/run/work_queue.h"

namespace pkb::run {

struct TurnPolicy {
  int turns = 1;
  double stop_speedup = 0;         // > 0: stop once correct and at least this fast; 0: never early
  long long max_tokens_total = 0;  // > 0: output tokens a sample may spend over all its turns
  int max_tokens = 0;              // the per-request cap (--max-tokens)
};

/// Why a conversation ends after this final record, or "" when it goes on: "api_error", then
/// "stop_speedup", "turns", "max_tokens_total". `output_tokens`: spent so far, this turn included.
std::string end_reason(const results::Record& record, const TurnPolicy& policy,
                       long long output_tokens);

/// One sample's conversation between its turns.
struct Conversation {
  const generate::ProblemPrompt* problem = nullptr;
  int sample = 0;
  generate::TurnInput next;     // the turn to ask now
  long long output_tokens = 0;  // known output tokens of the earlier turns
  bool goes_on = false;         // set by annotate() for written()
};

/// Rebuilds the conversation of `problem`'s sample from its recorded turns (oldest first, the last
/// one with feedback): the prompt, each answer.md and each feedback.md, under `out`. Throws
/// pkb::InputError naming the file when one is missing.
Conversation resume_conversation(const generate::ProblemPrompt& problem, int sample,
                                 const std::vector<results::Record>& records,
                                 const std::filesystem::path& out, const TurnPolicy& policy);

/// The conversations of a run: generation threads take the next turn to ask with next(); the
/// evaluator's hooks (EvalSettings::annotate, written) end each turn. Thread-safe.
class Conversations {
 public:
  Conversations(TurnPolicy policy, std::filesystem::path out, feedback::FeedbackTemplate tmpl);
  /// Queues a conversation's next turn; call before the first next().
  void start(Conversation conversation);
  /// Waits for a turn to ask; empty once every conversation has ended or after close().
  std::optional<Conversation> next();
  /// The turn was asked and its record goes to the evaluator next.
  void asked(Conversation conversation);
  /// The turn was not asked (Ctrl-C): the conversation stops here, --resume continues it.
  void dropped();
  /// EvalSettings::annotate: adds `conversation` and `feedback` (writing the feedback file) to
  /// the final record; returns whether the sample is over.
  bool annotate(results::Record& record, const std::string& compile_log);
  /// EvalSettings::written: queues the next turn of a conversation that goes on.
  void written(const results::Record& record);
  void close() { asks_.close(); }
  bool over() const { return open_ == 0; }

 private:
  void end_one();

  TurnPolicy policy_;
  std::filesystem::path out_;
  feedback::FeedbackTemplate template_;
  WorkQueue<Conversation> asks_;
  std::mutex mutex_;
  std::map<results::SampleId, Conversation> asked_;  // being evaluated
  std::atomic<int> open_{0};
};

}  // namespace pkb::run
