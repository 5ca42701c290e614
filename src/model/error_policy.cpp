// Failure classification and waits. Quota and billing 429s are told apart from rate limits by the
// codes providers use for them; a bare "quota" is not enough (Gemini's per-minute limits say it
// too).
#include "src/model/error_policy.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>

namespace pkb::model {
namespace {

constexpr std::size_t kMaxMessage = 300;  // error messages land in one log line and one record
// LiteLLM's proxy passes the upstream provider's headers on under this prefix.
const std::string kProxyPrefix = "llm_provider-";

// Retry-After as an HTTP date, "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 9110's IMF-fixdate, the form
// servers send); 0 when it does not parse.
std::time_t parse_http_date(const std::string& text) {
  std::tm when{};
  const char* end = strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &when);
  if (end == nullptr || *end != '\0') return 0;
  return timegm(&when);
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  if (text.size() > kMaxMessage) text = text.substr(0, kMaxMessage) + "...";
  return text;
}

std::string json_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number()) return value.dump();
  return "";
}

// An HTML error page says most in its <title>.
std::string html_summary(const std::string& body) {
  const std::string low = lower(body);
  const std::size_t open = low.find("<title>");
  const std::size_t close = low.find("</title>");
  if (open != std::string::npos && close != std::string::npos && close > open)
    return body.substr(open + 7, close - open - 7);
  return body;
}

bool is_quota(const std::string& text) {
  const std::string low = lower(text);
  for (const char* marker :
       {"insufficient_quota", "billing", "spend_limit", "credit_balance", "perday", "per_day"})
    if (low.find(marker) != std::string::npos) return true;
  return false;
}

std::optional<double> header_number(const std::map<std::string, std::string>& headers,
                                    const std::string& name) {
  const auto found = headers.find(name);
  if (found == headers.end()) return std::nullopt;
  try {
    std::size_t used = 0;
    const double value = std::stod(found->second, &used);
    if (used == found->second.size() && value >= 0) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// A reset header: seconds ("30"), a duration ("1s", "6m0s") or, for values no wait could be, a
// Unix time (GitHub-style proxies send x-ratelimit-reset: 1767225600).
std::optional<double> reset_seconds(const std::map<std::string, std::string>& headers,
                                    const std::string& name) {
  constexpr double kUnixTimeAfter = 1e9;  // 2001: larger "seconds" are a point in time
  if (auto seconds = header_number(headers, name)) {
    if (*seconds < kUnixTimeAfter) return seconds;
    return std::max(0.0, *seconds - static_cast<double>(std::time(nullptr)));
  }
  const auto found = headers.find(name);
  return found == headers.end() ? std::nullopt : parse_duration_s(found->second);
}

// What a server asks for outright.
std::optional<double> asked_wait(const std::map<std::string, std::string>& headers,
                                 const std::string& prefix) {
  if (auto ms = header_number(headers, prefix + "retry-after-ms")) return *ms / 1000.0;
  if (auto seconds = header_number(headers, prefix + "retry-after")) return *seconds;
  if (headers.count(prefix + "retry-after")) {  // an HTTP date
    const std::time_t when = parse_http_date(headers.at(prefix + "retry-after"));
    if (when > 0) return std::max(0.0, std::difftime(when, std::time(nullptr)));
  }
  return std::nullopt;
}

// When a rate-limit window resets.
std::optional<double> reset_wait(const std::map<std::string, std::string>& headers,
                                 const std::string& prefix) {
  for (const char* name : {"x-ratelimit-reset", "ratelimit-reset"})  // Together, IETF draft
    if (auto seconds = reset_seconds(headers, prefix + name)) return seconds;
  std::optional<double> longest;
  for (const char* name : {"x-ratelimit-reset-requests", "x-ratelimit-reset-tokens"})  // OpenAI
    if (auto seconds = reset_seconds(headers, prefix + name))
      longest = std::max(longest.value_or(0.0), *seconds);
  return longest;
}

std::optional<double> wait_hint(const std::map<std::string, std::string>& headers,
                                const ErrorBody& error) {
  if (auto seconds = asked_wait(headers, "")) return seconds;
  if (error.retry_delay_s) return error.retry_delay_s;
  if (auto seconds = reset_wait(headers, "")) return seconds;
  if (auto seconds = asked_wait(headers, kProxyPrefix)) return seconds;
  return reset_wait(headers, kProxyPrefix);
}

}  // namespace

std::optional<double> parse_duration_s(const std::string& text) {
  if (text.empty()) return std::nullopt;
  double total = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(text.substr(pos), &used);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    pos += used;
    std::string unit;
    while (pos < text.size() && std::isalpha(static_cast<unsigned char>(text[pos])))
      unit += text[pos++];
    if (unit == "h")
      total += value * 3600;
    else if (unit == "m")
      total += value * 60;
    else if (unit == "s")
      total += value;
    else if (unit == "ms")
      total += value / 1000;
    else
      return std::nullopt;
  }
  return total;
}

ErrorBody parse_error_body(const std::string& body) {
  ErrorBody out;
  const auto doc = nlohmann::json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    out.message = one_line(html_summary(body));
    return out;
  }
  const nlohmann::json& error =
      doc.contains("error") && doc["error"].is_object() ? doc["error"] : doc;
  if (error.contains("message")) out.message = one_line(json_text(error["message"]));
  if (error.contains("type")) out.type = json_text(error["type"]);
  if (error.contains("status")) out.type = json_text(error["status"]);  // Gemini
  if (error.contains("code")) out.code = json_text(error["code"]);
  if (error.contains("param")) out.param = json_text(error["param"]);
  if (doc.contains("error") && doc["error"].is_string())
    out.message = one_line(doc["error"].get<std::string>());
  if (error.contains("details") && error["details"].is_array()) {
    for (const auto& detail : error["details"]) {
      if (!detail.is_object()) continue;
      if (detail.value("@type", "").find("RetryInfo") != std::string::npos &&
          detail.contains("retryDelay"))
        out.retry_delay_s = parse_duration_s(json_text(detail["retryDelay"]));
    }
  }
  return out;
}

FailureKind classify_error(long status, const ErrorBody& error, const std::string& raw_body) {
  if (status == 401 || status == 402 || status == 403) return FailureKind::stop_provider;
  if (status == 429 || lower(error.type).find("rate_limit") != std::string::npos ||
      error.type == "RESOURCE_EXHAUSTED")
    return is_quota(error.type + " " + error.code + " " + raw_body) ? FailureKind::stop_provider
                                                                    : FailureKind::retry;
  const std::string type = lower(error.type);
  if (status == 408 || status == 409 || status >= 500 || type == "overloaded_error" ||
      type == "api_error" || type == "server_error" || type == "unavailable" ||
      type == "internal" || type == "deadline_exceeded" || type == "timeout_error")
    return FailureKind::retry;
  if (type == "authentication_error" || type == "permission_error" || type == "billing_error")
    return FailureKind::stop_provider;
  return FailureKind::fail_sample;
}

ApiFailure http_failure(long status, const std::map<std::string, std::string>& headers,
                        const std::string& body) {
  const ErrorBody error = parse_error_body(body);
  ApiFailure failure;
  failure.http_status = static_cast<int>(status);
  failure.kind = classify_error(status, error, body);
  const auto should_retry = headers.find("x-should-retry");
  if (should_retry != headers.end() && failure.kind != FailureKind::stop_provider)
    failure.kind = should_retry->second == "true" ? FailureKind::retry : FailureKind::fail_sample;
  std::string label = error.type.empty() ? error.code : error.type;
  failure.message = "HTTP " + std::to_string(status) + (label.empty() ? "" : " " + label) +
                    (error.message.empty() ? "" : ": " + error.message);
  failure.wait_hint_s = wait_hint(headers, error);
  return failure;
}

double backoff_delay_s(const BackoffPolicy& policy, int retry_index, std::mt19937_64& random) {
  const double ceiling =
      std::min(policy.cap_s, policy.base_s * std::pow(2.0, std::min(retry_index, 30)));
  return std::uniform_real_distribution<double>(0.5, 1.0)(random) * ceiling;
}

}  // namespace pkb::model
