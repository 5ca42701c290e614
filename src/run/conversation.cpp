// A turn's record is the commit point of a conversation: the feedback file is written before the
// record that names it, and the next turn is queued only after the record is durable, so a crash
// at any point resumes either at this turn (no record: it is asked again) or at the next one.
#include "src/run/conversation.h"

#include "src/common/error.h"
#include "src/results/durable_file.h"

namespace pkb::run {
namespace {

// The per-request cap of the next turn: --max-tokens, lowered to what the budget has left.
int next_max_tokens(const TurnPolicy& policy, long long spent) {
  if (policy.max_tokens_total <= 0) return 0;
  const long long left = policy.max_tokens_total - spent;
  return static_cast<int>(std::max<long long>(1, std::min<long long>(policy.max_tokens, left)));
}

std::string read_artifact(const std::filesystem::path& out, const std::string& relative,
                          const std::string& what) {
  const auto path = out / relative;
  if (relative.empty() || !std::filesystem::is_regular_file(path))
    throw InputError((out / "samples.jsonl").string() + ": " + what + " " +
                     (relative.empty() ? std::string("(none recorded)") : path.string()) +
                     " is missing; the conversation cannot be continued");
  return results::read_file(path);
}

std::string answer_of(const results::Record& record) {
  return record.artifacts ? record.artifacts->answer : "";
}

}  // namespace

std::string end_reason(const results::Record& record, const TurnPolicy& policy,
                       long long output_tokens) {
  if (record.status == "api_error") return "api_error";
  if (policy.stop_speedup > 0 && record.status == "correct" && record.evaluation &&
      record.evaluation->speedup && *record.evaluation->speedup >= policy.stop_speedup)
    return "stop_speedup";
  if (record.turn + 1 >= policy.turns) return "turns";
  if (policy.max_tokens_total > 0 && output_tokens >= policy.max_tokens_total)
    return "max_tokens_total";
  return "";
}

Conversation resume_conversation(const generate::ProblemPrompt& problem, int sample,
                                 const std::vector<results::Record>& records,
                                 const std::filesystem::path& out, const TurnPolicy& policy) {
  Conversation conversation;
  conversation.problem = &problem;
  conversation.sample = sample;
  std::string user = problem.prompt.text;
  for (const auto& record : records) {
    conversation.next.history.push_back(
        {user, read_artifact(out, answer_of(record),
                             "the answer of turn " + std::to_string(record.turn))});
    user = read_artifact(out, record.feedback ? record.feedback->file : "",
                         "the feedback on turn " + std::to_string(record.turn));
    conversation.output_tokens += record.output_tokens().value_or(0);
  }
  conversation.next.turn = static_cast<int>(records.size());
  conversation.next.user = user;
  conversation.next.max_tokens = next_max_tokens(policy, conversation.output_tokens);
  return conversation;
}

Conversations::Conversations(TurnPolicy policy, std::filesystem::path out,
                             feedback::FeedbackTemplate tmpl)
    : policy_(policy), out_(std::move(out)), template_(std::move(tmpl)) {}

void Conversations::start(Conversation conversation) {
  ++open_;
  asks_.push(std::move(conversation));
}

std::optional<Conversation> Conversations::next() { return asks_.pop(); }

void Conversations::asked(Conversation conversation) {
  std::lock_guard<std::mutex> lock(mutex_);
  const results::SampleId id{conversation.problem->key, conversation.sample};
  asked_[id] = std::move(conversation);
}

void Conversations::dropped() { end_one(); }

void Conversations::end_one() {
  if (--open_ == 0) asks_.close();
}

bool Conversations::annotate(results::Record& record, const std::string& compile_log) {
  std::lock_guard<std::mutex> lock(mutex_);
  const results::SampleId id{record.problem, record.sample};
  const auto found = asked_.find(id);
  if (found == asked_.end())
    throw Error("run: a record for " + id.first + " sample " + std::to_string(id.second) +
                " that no conversation asked for");
  Conversation& conversation = found->second;
  conversation.output_tokens += record.output_tokens().value_or(0);
  const std::string reason = end_reason(record, policy_, conversation.output_tokens);
  record.conversation = results::ConversationState{
      policy_.turns, conversation.output_tokens,
      reason.empty() ? std::nullopt : std::optional<std::string>(reason)};
  record.feedback.reset();
  conversation.goes_on = reason.empty();
  if (!conversation.goes_on) return true;

  const int turn = record.turn;
  const feedback::Feedback feedback =
      feedback::make_feedback(record, compile_log, template_, turn + 1, policy_.turns);
  const std::string file = generate::sample_dir(id.first, id.second, turn) + "/feedback.md";
  results::write_file_atomic(out_ / file, feedback.text);
  record.feedback = results::FeedbackSent{file, feedback.scope, feedback.note};

  generate::TurnInput& next = conversation.next;
  const std::string user = next.user.empty() ? conversation.problem->prompt.text : next.user;
  next.history.push_back({user, read_artifact(out_, answer_of(record),
                                              "the answer of turn " + std::to_string(turn))});
  next.turn = turn + 1;
  next.user = feedback.text;
  next.max_tokens = next_max_tokens(policy_, conversation.output_tokens);
  return false;
}

void Conversations::written(const results::Record& record) {
  std::optional<Conversation> again;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = asked_.find({record.problem, record.sample});
    if (found == asked_.end()) return;
    if (found->second.goes_on) again = std::move(found->second);
    asked_.erase(found);
  }
  if (again)
    asks_.push(std::move(*again));
  else
    end_one();
}

}  // namespace pkb::run
