// One interface for every model: HTTP providers (model_client.cpp) and replay:DIR (src/generate).
// generate() never throws for a failed request: the failure is in the outcome, classified.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "src/model/concurrency_limit.h"
#include "src/model/connection_watch.h"
#include "src/model/error_policy.h"
#include "src/model/http_transport.h"
#include "src/model/model_name.h"
#include "src/model/model_result.h"
#include "src/model/model_table.h"
#include "src/model/provider_api.h"
#include "src/model/request_settings.h"

namespace pkb::model {

class ModelClient {
 public:
  virtual ~ModelClient() = default;
  virtual ModelOutcome generate(const ModelRequest& request) = 0;
  /// Requests being sent or waited on now, for progress lines.
  virtual int in_flight() const { return 0; }
  /// Why this client sends nothing more (a dead endpoint, a bad key, a spent quota); empty while
  /// it still works. A run stops taking samples once it is set.
  virtual std::string stop_reason() const { return ""; }
};

struct ClientOptions {
  bool stream = true;
  // connect 10 s, stall 2 min, overall 1 h, first byte 20 min: a high-effort reasoning model may
  // think that long before its first byte when the provider streams nothing while it thinks.
  HttpTimeouts timeouts{10000, 120000, 3600000, 1200000};
  int max_attempts = 8;        // failures with 429, 503, 529 before giving up
  int max_attempts_other = 4;  // other failures (5xx, transport, malformed) before giving up
  // Timeouts after the provider had the request (it may bill each): the first is retried, this
  // many end the sample.
  int max_accepted_timeouts = 2;
  int dead_after = 3;     // connection failures in a row, across requests, that stop the run
  int max_in_flight = 8;  // per provider
  BackoffPolicy backoff;
  std::optional<ModelRule> rule;              // default: the built-in table's rule for the model
  const std::atomic<bool>* cancel = nullptr;  // set on Ctrl-C: stop waiting and sending
};

class HttpModelClient : public ModelClient {
 public:
  /// `key` is held only here and only put into request headers.
  HttpModelClient(ModelSpec spec, std::string key, ClientOptions options);
  ModelOutcome generate(const ModelRequest& request) override;
  int in_flight() const override { return limit_.in_flight(); }
  std::string stop_reason() const override;
  const ModelRule& rule() const { return rule_; }

 private:
  struct RetryBudget {
    int limited = 0;    // 429, 503, 529 so far
    int other = 0;      // other failures so far
    int malformed = 0;  // 200s that did not parse
    int accepted = 0;   // timeouts after the provider had the request
  };
  struct Attempt {
    ParsedReply reply;
    std::string transport_error;  // the transport's own words, for the dead-endpoint message
    bool connect_failed = false;
    bool accepted_timeout = false;
  };
  Attempt attempt(const HttpRequest& http, ModelOutcome& outcome);
  /// Settles a failed attempt's class against the budget; returns the wait before the next one.
  double plan_retry(ApiFailure& failure, const Attempt& tried, int number, RetryBudget& budget);
  /// After a 400 that names a parameter of `sent`: the change to retry with (also kept for later
  /// requests), or nothing.
  std::optional<RequestAdjustment> learn_from(const ApiFailure& failure, const std::string& body,
                                              const WireSettings& sent,
                                              std::vector<RequestAdjustment>& active);
  std::optional<ApiFailure> stopped_failure();
  void stop(const ApiFailure& failure);
  bool wait(double seconds) const;  // false when cancelled

  ModelSpec spec_;
  std::string key_;
  ClientOptions options_;
  ModelRule rule_;
  std::unique_ptr<ProviderApi> api_;
  ConcurrencyLimit limit_;
  ConnectionWatch connections_;
  std::mutex random_mutex_;
  std::mt19937_64 random_;
  mutable std::mutex stop_mutex_;
  std::optional<ApiFailure> stopped_;  // the first stop_provider or stop_run failure
  std::mutex learned_mutex_;
  std::vector<RequestAdjustment> learned_;  // from 400s; applied to every later request
};

}  // namespace pkb::model
