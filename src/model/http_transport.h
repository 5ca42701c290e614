// One HTTP POST through libcurl, with the three deadlines a model call needs: connect, stall (no
// byte for a while: only meaningful when streaming) and overall, each in milliseconds, plus a
// cancel flag. Transport failures are values in the response, never exceptions.
#pragma once

#include <atomic>
#include <map>
#include <string>
#include <vector>

namespace pkb::model {

struct HttpTimeouts {
  int connect_ms = 10000;
  int stall_ms = 0;    // 0: none
  int overall_ms = 0;  // 0: none
};

struct HttpRequest {
  std::string url;
  std::vector<std::string> headers;  // "Name: value"; may hold a key: never log them
  std::string body;
};

struct HttpResponse {
  long status = 0;                             // 0 when no response came
  std::map<std::string, std::string> headers;  // lowercased names, last value wins
  std::string body;
  bool transport_failed = false;  // connect failure, reset, stall, timeout, cancel
  bool retryable = true;          // false for a malformed URL or an unsupported protocol
  std::string error;              // one line, for transport failures
  double latency_s = 0;
};

/// Call once before starting threads (libcurl's global state); later calls do nothing.
void http_global_init();

HttpResponse http_post(const HttpRequest& request, const HttpTimeouts& timeouts,
                       const std::atomic<bool>* cancel = nullptr);

/// Whether a TCP (and TLS) connection to `url`'s host can be made within `timeout_ms`;
/// on failure `error` says why.
bool http_can_connect(const std::string& url, int timeout_ms, std::string& error);

}  // namespace pkb::model
