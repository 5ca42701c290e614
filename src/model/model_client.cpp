// The retry loop shared by every HTTP provider: build the request from the model's rule, send,
// classify, wait (hint or backoff), send again, within the attempt budget of the failure's class.
// A 400 naming a parameter changes that parameter and asks again at once; a timeout after the
// provider had the request is retried once only (each try may be billed); connection failures in
// a row stop the client for everyone. Each attempt is one log line.
#include "src/model/model_client.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <thread>

#include "src/model/param_rejection.h"

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

// What a user can do about a 401 or a 404 from this provider.
std::string http_hint(const ModelSpec& spec, bool has_key, long status) {
  if (status == 401)
    return has_key ? " (check " + api_key_env_names(spec.provider) + ")"
                   : " (no key was sent: set " + api_key_env_names(spec.provider) + ")";
  if (status == 404 && spec.custom_base)
    return " (is --base-url right? " + std::string(provider_name(spec.provider)) + " " +
           std::string(base_url_convention(spec.provider)) + ")";
  return "";
}

}  // namespace

HttpModelClient::HttpModelClient(ModelSpec spec, std::string key, ClientOptions options)
    : spec_(std::move(spec)),
      key_(std::move(key)),
      options_(options),
      rule_(options.rule ? *options.rule : ModelTable::builtin().rule_for(spec_)),
      api_(make_provider_api(spec_)),
      limit_(options.max_in_flight),
      connections_(options.dead_after),
      random_(std::random_device{}()) {
  http_global_init();
}

std::string HttpModelClient::stop_reason() const {
  std::lock_guard<std::mutex> lock(stop_mutex_);
  return stopped_ ? stopped_->message : "";
}

std::optional<ApiFailure> HttpModelClient::stopped_failure() {
  std::lock_guard<std::mutex> lock(stop_mutex_);
  if (!stopped_) return std::nullopt;
  ApiFailure failure = *stopped_;
  failure.message =
      (failure.kind == FailureKind::stop_run ? "run stopped: " : "provider stopped: ") +
      failure.message;
  failure.http_status = 0;
  return failure;
}

void HttpModelClient::stop(const ApiFailure& failure) {
  std::lock_guard<std::mutex> lock(stop_mutex_);
  if (!stopped_) stopped_ = failure;
}

bool HttpModelClient::wait(double seconds) const {
  const auto until = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < until) {
    if (options_.cancel && options_.cancel->load()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(kWaitSliceMs));
  }
  return true;
}

HttpModelClient::Attempt HttpModelClient::attempt(const HttpRequest& http, ModelOutcome& outcome) {
  HttpTimeouts timeouts = options_.timeouts;
  if (!options_.stream) {  // a non-streamed reply sends nothing until it is done
    timeouts.stall_ms = 0;
    timeouts.first_byte_ms = 0;
  }
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
  Attempt tried;
  ParsedReply& reply = tried.reply;
  if (response.connect_failed) {
    tried.connect_failed = true;
  } else {
    connections_.connected();
  }
  if (response.transport_failed) {
    reply.failure = ApiFailure{response.retryable ? FailureKind::retry : FailureKind::fail_sample,
                               "transport: " + response.error, log.http_status, std::nullopt};
    tried.accepted_timeout = response.timed_out && response.request_sent;
    tried.transport_error = response.error;
    if (options_.cancel && options_.cancel->load()) reply.failure->kind = FailureKind::fail_sample;
  } else if (response.status < 200 || response.status >= 300) {
    reply.failure = http_failure(response.status, response.headers, response.body);
    reply.failure->message += http_hint(spec_, !key_.empty(), response.status);
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
  return tried;
}

double HttpModelClient::plan_retry(ApiFailure& failure, const Attempt& tried, int number,
                                   RetryBudget& budget) {
  budget.malformed += tried.reply.malformed ? 1 : 0;
  const bool limited = is_rate_limit(failure.http_status);
  if (limited) {
    limit_.on_rate_limited();
    budget.limited += 1;
  } else {
    budget.other += 1;
  }
  if (failure.kind != FailureKind::retry) return 0;
  if (tried.connect_failed) {
    if (auto dead = connections_.failed(tried.transport_error)) {
      failure.kind = FailureKind::stop_run;
      failure.message = spec_.base_url + ": " + *dead;
      return 0;
    }
  }
  if (tried.accepted_timeout && ++budget.accepted >= options_.max_accepted_timeouts) {
    failure.kind = FailureKind::fail_sample;
    failure.message += " (" + std::to_string(budget.accepted) +
                       " timeouts after the provider had the request; not retried again, as "
                       "each may be billed)";
    return 0;
  }
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

std::optional<RequestAdjustment> HttpModelClient::learn_from(
    const ApiFailure& failure, const std::string& body, const WireSettings& sent,
    std::vector<RequestAdjustment>& active) {
  if (failure.kind != FailureKind::fail_sample ||
      (failure.http_status != 400 && failure.http_status != 422))
    return std::nullopt;
  auto change = adjustment_for(parse_error_body(body), sent, active);
  if (!change) return std::nullopt;
  active.push_back(*change);
  std::lock_guard<std::mutex> lock(learned_mutex_);
  for (const RequestAdjustment& known : learned_)
    if (known.param == change->param) return change;  // another request learned it first
  learned_.push_back(*change);
  spdlog::warn(
      "model: {}: the provider rejected {} {} ({}); {} from now on", spec_.text,
      param_name(change->param), change->sent.dump(), failure.message,
      change->limit ? "lowered to " + std::to_string(*change->limit) : std::string("not sent"));
  return change;
}

ModelOutcome HttpModelClient::generate(const ModelRequest& request) {
  ModelOutcome outcome;
  const auto start = Clock::now();
  std::vector<RequestAdjustment> active;
  {
    std::lock_guard<std::mutex> lock(learned_mutex_);
    active = learned_;
  }
  RetryBudget budget;
  while (true) {
    if (auto stopped = stopped_failure()) {
      outcome.failure = *stopped;
      break;
    }
    const WireSettings wire = resolve_wire(rule_, spec_.provider, request, active);
    outcome.request_body = api_->body(request, wire, options_.stream);
    const HttpRequest http{api_->url(options_.stream), api_->headers(key_),
                           outcome.request_body.dump()};
    const Attempt tried = attempt(http, outcome);
    const int number = static_cast<int>(outcome.attempts.size());
    if (tried.reply.result) {
      limit_.on_success();
      outcome.result = tried.reply.result;
      spdlog::debug("model: {} {} attempt {}: HTTP {} {} ({:.2f} s, request {})", spec_.text,
                    request.label, number, outcome.http_status,
                    stop_reason_name(outcome.result->stop), outcome.attempts.back().latency_s,
                    outcome.request_id);
      break;
    }
    ApiFailure failure = *tried.reply.failure;
    if (learn_from(failure, outcome.raw_response, wire, active)) continue;  // ask again at once
    outcome.timeouts_after_accept += tried.accepted_timeout ? 1 : 0;
    const double wait_s = plan_retry(failure, tried, number, budget);
    const bool cancelled = options_.cancel && options_.cancel->load();
    spdlog::log(
        failure.kind == FailureKind::retry || cancelled ? spdlog::level::debug
                                                        : spdlog::level::warn,
        "model: {} {} attempt {}: {} -> {}{}", spec_.text, request.label, number, failure.message,
        failure_kind_name(failure.kind),
        failure.kind == FailureKind::retry ? fmt::format(", retry in {:.2f} s", wait_s) : "");
    if (failure.kind == FailureKind::stop_provider || failure.kind == FailureKind::stop_run)
      stop(failure);
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
  for (const RequestAdjustment& adjustment : active)
    outcome.adjustments.push_back(to_json(adjustment));
  outcome.latency_s = std::chrono::duration<double>(Clock::now() - start).count();
  return outcome;
}

}  // namespace pkb::model
