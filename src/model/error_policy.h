// What to do after a failed attempt: retry, stop the provider (quota,
// billing, bad key) or fail the sample, and how long to wait: the server's hint when it gave one,
// else exponential backoff with jitter.
#pragma once

#include <map>
#include <optional>
#include <random>
#include <string>

#include "src/model/model_result.h"

namespace pkb::model {

/// The fields of any provider's error body: OpenAI {error:{message,type,code}}, Anthropic
/// {type:"error",error:{type,message}}, Gemini {error:{code,message,status,details}}, vLLM's flat
/// {object:"error",message,type,code}. A body that is not JSON (an HTML 502 page) gives its first
/// words as the message.
struct ErrorBody {
  std::string type;                     // "rate_limit_error", "RESOURCE_EXHAUSTED", ...
  std::string code;                     // "insufficient_quota", "429", ...
  std::string param;                    // OpenAI's error.param: "temperature", "max_tokens", ...
  std::string message;                  // one line
  std::optional<double> retry_delay_s;  // Gemini RetryInfo.retryDelay
};
ErrorBody parse_error_body(const std::string& body);

/// The class of an error named by an HTTP status and the error's type or code.
FailureKind classify_error(long status, const ErrorBody& error, const std::string& raw_body);

/// A non-2xx response as a failure, with its wait hint and the x-should-retry override applied.
/// Hints, first found wins: retry-after-ms, retry-after (seconds or an HTTP date), Gemini's
/// RetryInfo.retryDelay, x-ratelimit-reset or ratelimit-reset (seconds, a duration or a Unix
/// time), the longest of x-ratelimit-reset-requests and -tokens; then the same headers under the
/// llm_provider- prefix a LiteLLM proxy gives the upstream headers it passes on.
ApiFailure http_failure(long status, const std::map<std::string, std::string>& headers,
                        const std::string& body);

/// Parses "37s", "45.83s", "12ms", "6m0s", "1h2m3.5s" (Go and protobuf durations) into seconds.
std::optional<double> parse_duration_s(const std::string& text);

struct BackoffPolicy {
  double base_s = 1.0;
  double cap_s = 60.0;
  double max_hint_s = 600.0;  // a longer hint stops the provider instead of waiting
};

/// U(0.5, 1.0) x min(cap, base x 2^retry_index).
double backoff_delay_s(const BackoffPolicy& policy, int retry_index, std::mt19937_64& random);

}  // namespace pkb::model
