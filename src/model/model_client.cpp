// The retry loop shared by every HTTP provider: send, classify, wait (hint or backoff), send
// again, within the attempt budget of the failure's class. Each attempt is one log line.
#include "src/model/model_client.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <thread>

namespace pkb::model {
namespace {

constexpr int kMaxMalformed = 2;  // a 200 with bad JSON: retried once, then the sample fails
constexpr int kWaitSliceMs = 20;  // how often a backoff wait looks at the cancel flag

using Clock = std::chrono::steady_clock;

bool is_rate_limit(int status) { return status == 429 || status == 503 || status == 529; }

std::string request_id_of(const HttpResponse& response) {
  for (const char* name : {"x-request-id", "request-id"}) {
    const auto found = response.headers.find(name);
    if (found != response.headers.end()) return found->second;
  }
  return "";
}

}  // namespace

HttpModelClient::HttpModelClient(ModelSpec spec, std::string key, ClientOptions options)
    : spec_(std::move(spec)),
      key_(std::move(key)),
      options_(options),
      api_(make_provider_api(spec_)),
      limit_(options.max_in_flight),
      random_(std::random_device{}()) {
  http_global_init();
}

bool HttpModelClient::wait(double seconds) const {
  const auto until = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < until) {
    if (options_.cancel && options_.cancel->load()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(kWaitSliceMs));
  }
  return true;
}

ParsedReply HttpModelClient::attempt(const HttpRequest& http, ModelOutcome& outcome) {
  HttpTimeouts timeouts = options_.timeouts;
  if (!options_.stream)
    timeouts.stall_ms = 0;  // a non-streamed reply sends nothing until it is done
  HttpResponse response;
  {
    ConcurrencySlot slot(limit_);
    response = http_post(http, timeouts, options_.cancel);
  }
  AttemptLog log;
  log.http_status = static_cast<int>(response.status);
  log.latency_s = response.latency_s;
  log.request_id = request_id_of(response);
  outcome.raw_response = response.body;
  outcome.http_status = log.http_status;
  ParsedReply reply;
  if (response.transport_failed) {
    reply.failure = ApiFailure{response.retryable ? FailureKind::retry : FailureKind::fail_sample,
                               "transport: " + response.error, log.http_status, std::nullopt};
    if (options_.cancel && options_.cancel->load()) reply.failure->kind = FailureKind::fail_sample;
  } else if (response.status < 200 || response.status >= 300) {
    reply.failure = http_failure(response.status, response.headers, response.body);
  } else {
    // A server may answer a streamed request with a plain JSON body (some proxies do).
    const bool sse =
        response.headers.count("content-type") &&
        response.headers.at("content-type").find("text/event-stream") != std::string::npos;
    reply = sse ? api_->parse_stream(response.body) : api_->parse_body(response.body);
    if (reply.result && log.request_id.empty()) log.request_id = reply.result->response_id;
  }
  if (reply.failure) log.error = reply.failure->message;
  outcome.attempts.push_back(log);
  outcome.request_id = log.request_id;
  return reply;
}

double HttpModelClient::plan_retry(ApiFailure& failure, bool malformed, int number,
                                   RetryBudget& budget) {
  budget.malformed += malformed ? 1 : 0;
  const bool limited = is_rate_limit(failure.http_status);
  if (limited) {
    limit_.on_rate_limited();
    budget.limited += 1;
  } else {
    budget.other += 1;
  }
  if (failure.kind != FailureKind::retry) return 0;
  if (budget.malformed >= kMaxMalformed) failure.kind = FailureKind::fail_sample;
  if (limited ? budget.limited >= options_.max_attempts
              : budget.other >= options_.max_attempts_other) {
    failure.kind = FailureKind::fail_sample;
    failure.message += " (gave up after " + std::to_string(number) + " attempts)";
  }
  if (failure.kind != FailureKind::retry) return 0;
  if (failure.wait_hint_s && *failure.wait_hint_s > options_.backoff.max_hint_s) {
    failure.kind = FailureKind::stop_provider;  // waiting that long is stopping; say so
    failure.message +=
        " (asked to wait " + std::to_string(static_cast<long>(*failure.wait_hint_s)) + " s)";
    return 0;
  }
  if (failure.wait_hint_s) return *failure.wait_hint_s;
  std::lock_guard<std::mutex> lock(random_mutex_);
  return backoff_delay_s(options_.backoff, number - 1, random_);
}

ModelOutcome HttpModelClient::generate(const ModelRequest& request) {
  ModelOutcome outcome;
  const auto start = Clock::now();
  outcome.request_body = api_->body(request, options_.stream);
  HttpRequest http{api_->url(options_.stream), api_->headers(key_), outcome.request_body.dump()};
  RetryBudget budget;
  while (true) {
    {
      std::lock_guard<std::mutex> lock(stop_mutex_);
      if (!stopped_.empty()) {
        outcome.failure = ApiFailure{FailureKind::stop_provider, "provider stopped: " + stopped_, 0,
                                     std::nullopt};
        break;
      }
    }
    ParsedReply reply = attempt(http, outcome);
    const int number = static_cast<int>(outcome.attempts.size());
    if (reply.result) {
      limit_.on_success();
      outcome.result = std::move(reply.result);
      spdlog::debug("model: {} {} attempt {}: HTTP {} {} ({:.2f} s, request {})", spec_.text,
                    request.label, number, outcome.http_status,
                    stop_reason_name(outcome.result->stop), outcome.attempts.back().latency_s,
                    outcome.request_id);
      break;
    }
    ApiFailure failure = *reply.failure;
    const double wait_s = plan_retry(failure, reply.malformed, number, budget);
    const bool cancelled = options_.cancel && options_.cancel->load();
    spdlog::log(
        failure.kind == FailureKind::retry || cancelled ? spdlog::level::debug
                                                        : spdlog::level::warn,
        "model: {} {} attempt {}: {} -> {}{}", spec_.text, request.label, number, failure.message,
        failure_kind_name(failure.kind),
        failure.kind == FailureKind::retry ? fmt::format(", retry in {:.2f} s", wait_s) : "");
    if (failure.kind == FailureKind::stop_provider) {
      std::lock_guard<std::mutex> lock(stop_mutex_);
      if (stopped_.empty()) stopped_ = failure.message;
    }
    if (failure.kind != FailureKind::retry) {
      outcome.failure = failure;
      break;
    }
    outcome.attempts.back().wait_s = wait_s;
    if (!wait(wait_s)) {
      failure.kind = FailureKind::fail_sample;
      failure.message = "cancelled while waiting to retry: " + failure.message;
      outcome.failure = failure;
      break;
    }
  }
  outcome.latency_s = std::chrono::duration<double>(Clock::now() - start).count();
  return outcome;
}

}  // namespace pkb::model
