// One HTTP POST through libcurl, with the deadlines a model call needs, each in milliseconds:
// connect; first byte (a reasoning model may think for many minutes before its first byte);
// stall (no byte for a while once the body has begun: only meaningful when streaming); overall;
// plus a cancel flag. Transport failures are values in the response, never exceptions.
#pragma once

#include <atomic>
#include <map>
#include <string>
#include <vector>

namespace pkb::model {

struct HttpTimeouts {
  int connect_ms = 10000;
  int stall_ms = 0;       // between body bytes, once the first has come; 0: none
  int overall_ms = 0;     // 0: none
  int first_byte_ms = 0;  // from the start to the body's first byte; 0: none
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
  bool connect_failed = false;    // no connection was made: refused, no such host, connect timeout
  bool timed_out = false;         // a deadline (first byte, stall, overall) ended it
  bool request_sent = false;      // the whole request reached the server, which may bill for it
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
