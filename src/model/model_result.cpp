// Name tables and JSON forms of model_result.h.
#include "src/model/model_result.h"

#include "src/common/sha256.h"

namespace pkb::model {
namespace {

constexpr std::string_view kStopNames[] = {"complete", "truncated", "refused", "filtered", "other"};

nlohmann::json count_or_null(const std::optional<std::int64_t>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::optional<std::int64_t> read_count(const nlohmann::json& doc, const char* key) {
  if (!doc.is_object() || !doc.contains(key) || !doc[key].is_number_integer()) return std::nullopt;
  return doc[key].get<std::int64_t>();
}

}  // namespace

std::string_view stop_reason_name(StopReason reason) {
  return kStopNames[static_cast<int>(reason)];
}

std::optional<StopReason> parse_stop_reason(std::string_view name) {
  for (int index = 0; index < 5; ++index)
    if (kStopNames[index] == name) return static_cast<StopReason>(index);
  return std::nullopt;
}

std::string_view failure_kind_name(FailureKind kind) {
  switch (kind) {
    case FailureKind::retry: return "retry";
    case FailureKind::stop_provider: return "stop_provider";
    case FailureKind::fail_sample: return "fail_sample";
    case FailureKind::stop_run: return "stop_run";
  }
  return "unknown";
}

nlohmann::json to_json(const Usage& usage) {
  return {{"input_tokens", count_or_null(usage.input)},
          {"cached_input_tokens", count_or_null(usage.cached)},
          {"output_tokens", count_or_null(usage.output)},
          {"reasoning_tokens", count_or_null(usage.reasoning)}};
}

Usage usage_from_json(const nlohmann::json& doc) {
  return {read_count(doc, "input_tokens"), read_count(doc, "cached_input_tokens"),
          read_count(doc, "output_tokens"), read_count(doc, "reasoning_tokens")};
}

std::string conversation_sha256(const std::vector<ChatTurn>& history, const std::string& user) {
  if (history.empty()) return sha256_hex(user);
  nlohmann::json messages = nlohmann::json::array();
  for (const ChatTurn& turn : history)
    messages.push_back(nlohmann::json::array({turn.user, turn.assistant}));
  messages.push_back(nlohmann::json::array({user}));
  return sha256_hex(messages.dump());
}

}  // namespace pkb::model
