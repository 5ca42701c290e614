// What one request to a model asks and what comes back, the same for every provider
//: answer text apart from reasoning text, a normalized stop reason
// beside the raw one, usage with nulls where the provider said nothing, and every attempt.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pkb::model {

/// One earlier exchange of a conversation: what was asked and the visible answer (reasoning text
/// is not sent back: not every provider accepts it, and the answer is what the feedback is about).
struct ChatTurn {
  std::string user;
  std::string assistant;
};

struct ModelRequest {
  std::string system;                 // may be empty: then no system message is sent
  std::vector<ChatTurn> history;      // earlier turns, oldest first; empty for a first turn
  std::string user;                   // this turn's message
  int max_tokens = 0;                 // the output cap, reasoning included; always sent
  std::optional<double> temperature;  // sent only when set
  std::string reasoning;              // "", "low", "medium" or "high"; sent only when set
  int sample_index = 0;
  int turn = 0;       // 0-based refinement turn (history.size() for a conversation)
  std::string label;  // for log lines: "001_allreduce#3"
};

/// SHA-256 identifying what the model is shown: of `user` alone for a first turn (so one-turn
/// runs keep their prompt hash), else of the whole conversation as canonical JSON.
std::string conversation_sha256(const std::vector<ChatTurn>& history, const std::string& user);

/// Enumerators equal their serialized names.
enum class StopReason { complete, truncated, refused, filtered, other };
std::string_view stop_reason_name(StopReason reason);
std::optional<StopReason> parse_stop_reason(std::string_view name);

/// Token counts; empty when the provider (or a cut stream) did not report them: never 0 instead.
struct Usage {
  std::optional<std::int64_t> input;      // all input tokens, cached ones included
  std::optional<std::int64_t> cached;     // input tokens read from the provider's cache
  std::optional<std::int64_t> output;     // billed output, reasoning included
  std::optional<std::int64_t> reasoning;  // the reasoning part of `output`
};

struct ModelResult {
  std::string text;            // the visible answer; extraction reads only this
  std::string reasoning_text;  // thinking blocks, thought parts, reasoning fields
  StopReason stop = StopReason::other;
  std::string raw_stop;  // the provider's own value ("length", "end_turn", "MAX_TOKENS")
  Usage usage;
  nlohmann::json raw_usage;  // the provider's usage object as sent (null when none)
  std::string model;         // the resolved model id the provider reported
  std::string response_id;   // body id (chatcmpl-..., msg_..., responseId)
};

/// retry: transient; stop_provider: every further request would fail alike (quota, bad key);
/// fail_sample: this request is bad (400, 404, unparseable twice); stop_run: the endpoint took no
/// connection several times in a row, so the run stops and this sample stays unasked.
enum class FailureKind { retry, stop_provider, fail_sample, stop_run };
std::string_view failure_kind_name(FailureKind kind);

struct ApiFailure {
  FailureKind kind = FailureKind::fail_sample;
  std::string message;  // one line: "HTTP 429 rate_limit_error: ..." or "connect: ..."
  int http_status = 0;  // 0 for transport failures
  std::optional<double> wait_hint_s;  // what the server asked us to wait, if it did
};

struct AttemptLog {
  int http_status = 0;
  std::string error;       // empty on success
  std::string request_id;  // header x-request-id / request-id, else the body id
  double latency_s = 0;
  double wait_s = 0;  // waited after this attempt before the next one
};

/// The outcome of one generate() call, after every retry.
struct ModelOutcome {
  std::optional<ModelResult> result;  // set on success (any terminal stop reason)
  std::optional<ApiFailure> failure;  // set otherwise
  std::vector<AttemptLog> attempts;
  /// Parameters dropped or lowered after a 400 that named them, here or in an earlier request of
  /// the same client (request_settings.h); each as JSON for the sample's record.
  std::vector<nlohmann::json> adjustments;
  int timeouts_after_accept = 0;  // attempts that timed out once the provider had the request
  nlohmann::json request_body;    // exactly what was sent (no key: keys go in headers only)
  std::string raw_response;       // the last attempt's body or SSE transcript
  int http_status = 0;
  std::string request_id;
  double latency_s = 0;  // first attempt's start to the end, waits included

  bool ok() const { return result.has_value(); }
};

nlohmann::json to_json(const Usage& usage);
Usage usage_from_json(const nlohmann::json& doc);

}  // namespace pkb::model
