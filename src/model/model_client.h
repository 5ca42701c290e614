// One interface for every model: HTTP providers (model_client.cpp) and replay:DIR (src/generate).
// generate() never throws for a failed request: the failure is in the outcome, classified.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "src/model/concurrency_limit.h"
#include "src/model/error_policy.h"
#include "src/model/http_transport.h"
#include "src/model/model_name.h"
#include "src/model/model_result.h"
#include "src/model/provider_api.h"

namespace pkb::model {

class ModelClient {
 public:
  virtual ~ModelClient() = default;
  virtual ModelOutcome generate(const ModelRequest& request) = 0;
  /// Requests being sent or waited on now, for progress lines.
  virtual int in_flight() const { return 0; }
};

struct ClientOptions {
  bool stream = true;
  HttpTimeouts timeouts{10000, 120000, 3600000};  // connect 10 s, stall 2 min, overall 1 h
  int max_attempts = 8;                           // failures with 429, 503, 529 before giving up
  int max_attempts_other = 4;  // other failures (5xx, transport, malformed) before giving up
  int max_in_flight = 8;       // per provider
  BackoffPolicy backoff;
  const std::atomic<bool>* cancel = nullptr;  // set on Ctrl-C: stop waiting and sending
};

class HttpModelClient : public ModelClient {
 public:
  /// `key` is held only here and only put into request headers.
  HttpModelClient(ModelSpec spec, std::string key, ClientOptions options);
  ModelOutcome generate(const ModelRequest& request) override;
  int in_flight() const override { return limit_.in_flight(); }

 private:
  struct RetryBudget {
    int limited = 0;    // 429, 503, 529 so far
    int other = 0;      // other failures so far
    int malformed = 0;  // 200s that did not parse
  };
  ParsedReply attempt(const HttpRequest& http, ModelOutcome& outcome);
  /// Settles a failed attempt's class against the budget; returns the wait before the next one.
  double plan_retry(ApiFailure& failure, bool malformed, int number, RetryBudget& budget);
  bool wait(double seconds) const;  // false when cancelled

  ModelSpec spec_;
  std::string key_;
  ClientOptions options_;
  std::unique_ptr<ProviderApi> api_;
  ConcurrencyLimit limit_;
  std::mutex random_mutex_;
  std::mt19937_64 random_;
  std::mutex stop_mutex_;
  std::string stopped_;  // set by the first stop_provider failure: later requests fail at once
};

}  // namespace pkb::model
