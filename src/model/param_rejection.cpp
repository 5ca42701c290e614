// Reading a 400 for the parameter it blames. OpenAI names it in error.param; Anthropic and Gemini
// only in the message ("max_tokens: 32000 > 8192, ...", "thinking.type: ...", "Thinking level is
// not supported"), so the message is searched too. Temperature is looked for before thinking:
// Anthropic's "temperature may only be set to 1 when thinking is enabled" blames the temperature.
#include "src/model/param_rejection.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace pkb::model {
namespace {

// The smallest output cap worth lowering to; smaller numbers in a message are versions and dates.
constexpr long long kMinLimit = 16;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool has_any(const std::string& text, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(),
                     [&text](const char* word) { return text.find(word) != std::string::npos; });
}

bool done_before(const std::vector<RequestAdjustment>& done, Param param) {
  return std::any_of(done.begin(), done.end(),
                     [param](const RequestAdjustment& item) { return item.param == param; });
}

std::optional<long long> first_number(const std::string& text, const std::regex& pattern) {
  std::smatch match;
  if (!std::regex_search(text, match, pattern)) return std::nullopt;
  return std::stoll(match[1].str());
}

std::optional<int> below(std::optional<long long> value, int sent) {
  if (!value || *value < kMinLimit || *value >= sent) return std::nullopt;
  return static_cast<int>(*value);
}

}  // namespace

std::optional<int> token_limit_in(const std::string& message, int sent) {
  // "16,384" -> "16384": some messages group digits.
  const std::string text =
      std::regex_replace(lower(message), std::regex("(\\d),(\\d{3})\\b"), "$1$2");
  // vLLM and other OpenAI-compatible servers: the context length minus the prompt.
  const auto context = first_number(text, std::regex("maximum context length is (\\d+)"));
  auto prompt = first_number(text, std::regex("(\\d+) in the messages"));
  if (!prompt) prompt = first_number(text, std::regex("has (\\d+) input tokens"));
  if (context && prompt) return below(*context - *prompt, sent);
  if (auto limit = first_number(text, std::regex("(\\d+) \\(exclusive\\)")))
    return below(*limit - 1, sent);
  for (const char* pattern : {"at most (\\d+)", "less than or equal to (\\d+)", "<= ?(\\d+)",
                              "> ?(\\d+)", "maximum[a-z_ ]*(?:is|of|:)? ?(\\d+)"})
    if (auto limit = below(first_number(text, std::regex(pattern)), sent)) return limit;
  if (context) return std::nullopt;  // a context length alone is no output cap
  std::optional<int> largest;        // last resort: the largest number below what was sent
  const std::regex number("\\d+");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number);
       it != std::sregex_iterator(); ++it) {
    if (it->str().size() > 9) continue;
    if (auto value = below(std::stoll(it->str()), sent))
      largest = std::max(largest.value_or(0), *value);
  }
  return largest;
}

std::optional<RequestAdjustment> adjustment_for(const ErrorBody& error, const WireSettings& sent,
                                                const std::vector<RequestAdjustment>& done) {
  const std::string text = lower(error.param + " " + error.message);
  const std::string reason = error.message.empty() ? error.type : error.message;
  auto make = [&](Param param, nlohmann::json value) -> std::optional<RequestAdjustment> {
    if (done_before(done, param)) return std::nullopt;
    return RequestAdjustment{param, std::nullopt, std::move(value), reason};
  };
  const bool thinking = sent.reasoning != ReasoningStyle::none;
  if (sent.summary &&
      has_any(text, {"summary", "summaries", "includethoughts", "include_thoughts"}))
    if (auto change = make(Param::summary, true)) return change;
  if (sent.temperature && text.find("temperature") != std::string::npos)
    if (auto change = make(Param::temperature, *sent.temperature)) return change;
  if (has_any(text, {"max_tokens", "max_completion_tokens", "max_output_tokens", "maxoutputtokens",
                     "max output tokens", "maximum context length", "output tokens"}))
    if (auto limit = token_limit_in(error.message, sent.max_tokens))
      if (auto change = make(Param::max_tokens, sent.max_tokens)) {
        change->limit = limit;
        return change;
      }
  if (sent.reasoning == ReasoningStyle::adaptive && !sent.effort.empty() &&
      has_any(text, {"output_config", "effort"}))
    if (auto change = make(Param::effort, sent.effort)) return change;
  if ((thinking || sent.summary) &&
      has_any(text, {"reasoning", "thinking", "effort", "budget", "thought"})) {
    nlohmann::json value = sent.effort;
    if (sent.reasoning == ReasoningStyle::budget) value = sent.budget_tokens;
    if (!thinking) value = "thoughts";
    if (auto change = make(Param::reasoning, value)) return change;
  }
  return std::nullopt;
}

}  // namespace pkb::model
