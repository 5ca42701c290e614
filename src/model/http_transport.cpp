// http_post drives one easy handle through a private multi handle so it can wake every
// kPollMs to check the stall and overall deadlines and the cancel flag with millisecond
// precision (CURLOPT_LOW_SPEED_TIME counts whole seconds).
#include "src/model/http_transport.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <mutex>

namespace pkb::model {
namespace {

constexpr int kPollMs = 20;

using Clock = std::chrono::steady_clock;

struct Transfer {
  HttpResponse* response;
  Clock::time_point last_byte;
  bool body_started = false;  // until then the first-byte deadline applies, after it the stall one
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  transfer->response->body.append(data, size * count);
  transfer->last_byte = Clock::now();
  transfer->body_started = true;
  return size * count;
}

bool is_connect_failure(CURLcode code, CURL* easy) {
  if (code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
      code == CURLE_COULDNT_RESOLVE_PROXY || code == CURLE_SSL_CONNECT_ERROR)
    return true;
  curl_off_t connect_us = 0;
  curl_easy_getinfo(easy, CURLINFO_CONNECT_TIME_T, &connect_us);
  return code == CURLE_OPERATION_TIMEDOUT && connect_us == 0;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  transfer->last_byte = Clock::now();
  std::string line(data, size * count);
  if (line.rfind("HTTP/", 0) == 0) {
    transfer->response->headers.clear();  // a new response (after 100 Continue or a redirect)
    return size * count;
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string::npos) return size * count;
  std::string name = line.substr(0, colon);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  std::string value = line.substr(colon + 1);
  const std::size_t begin = value.find_first_not_of(" \t");
  const std::size_t end = value.find_last_not_of(" \t\r\n");
  value = begin == std::string::npos ? "" : value.substr(begin, end - begin + 1);
  transfer->response->headers[name] = value;
  return size * count;
}

// One multi handle per thread, kept between requests: its connection cache lets a worker reuse a
// kept-alive connection (no new TCP and TLS handshake per request).
struct ThreadMulti {
  CURLM* multi = curl_multi_init();
  ~ThreadMulti() { curl_multi_cleanup(multi); }
};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

long elapsed_ms(Clock::time_point since) {
  return static_cast<long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count());
}

}  // namespace

void http_global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

HttpResponse http_post(const HttpRequest& request, const HttpTimeouts& timeouts,
                       const std::atomic<bool>* cancel) {
  http_global_init();
  HttpResponse response;
  const auto start = Clock::now();
  Transfer transfer{&response, start};
  CURL* easy = curl_easy_init();
  curl_slist* headers = nullptr;
  for (const auto& header : request.headers) headers = curl_slist_append(headers, header.c_str());
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip
  curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(easy, CURLOPT_POST, 1L);
  curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeouts.connect_ms));
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");  // whatever curl can decode

  thread_local ThreadMulti holder;
  CURLM* multi = holder.multi;
  curl_multi_add_handle(multi, easy);
  int running = 1;
  std::string abort_reason;
  while (true) {
    curl_multi_perform(multi, &running);
    if (running == 0) break;
    if (cancel && cancel->load()) {
      abort_reason = "cancelled";
    } else if (!transfer.body_started && timeouts.first_byte_ms > 0 &&
               elapsed_ms(start) > timeouts.first_byte_ms) {
      abort_reason = "no first byte within " + std::to_string(timeouts.first_byte_ms) + " ms";
      response.timed_out = true;
    } else if (transfer.body_started && timeouts.stall_ms > 0 &&
               elapsed_ms(transfer.last_byte) > timeouts.stall_ms) {
      abort_reason = "stalled: no data for " + std::to_string(timeouts.stall_ms) + " ms";
      response.timed_out = true;
    } else if (timeouts.overall_ms > 0 && elapsed_ms(start) > timeouts.overall_ms) {
      abort_reason = "timed out after " + std::to_string(timeouts.overall_ms) + " ms";
      response.timed_out = true;
    }
    if (!abort_reason.empty()) break;
    curl_multi_poll(multi, nullptr, 0, kPollMs, nullptr);
  }
  CURLcode code = CURLE_OK;
  int queued = 0;
  while (CURLMsg* message = curl_multi_info_read(multi, &queued))
    if (message->msg == CURLMSG_DONE) code = message->data.result;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &response.status);
  curl_off_t uploaded = 0;
  curl_easy_getinfo(easy, CURLINFO_SIZE_UPLOAD_T, &uploaded);
  response.request_sent =
      response.status != 0 || uploaded >= static_cast<curl_off_t>(request.body.size());
  if (!abort_reason.empty()) {
    response.transport_failed = true;
    response.error = abort_reason;
  } else if (code != CURLE_OK) {
    response.transport_failed = true;
    response.error = curl_easy_strerror(code);
    response.retryable = code != CURLE_URL_MALFORMAT && code != CURLE_UNSUPPORTED_PROTOCOL &&
                         code != CURLE_PEER_FAILED_VERIFICATION;
    response.connect_failed = is_connect_failure(code, easy);
    response.timed_out = code == CURLE_OPERATION_TIMEDOUT && !response.connect_failed;
    if (response.connect_failed) response.request_sent = false;
  }
  curl_multi_remove_handle(multi, easy);
  curl_easy_cleanup(easy);
  curl_slist_free_all(headers);
  response.latency_s = seconds_since(start);
  return response;
}

bool http_can_connect(const std::string& url, int timeout_ms, std::string& error) {
  http_global_init();
  CURL* easy = curl_easy_init();
  curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
  curl_easy_setopt(easy, CURLOPT_CONNECT_ONLY, 1L);
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout_ms));
  const CURLcode code = curl_easy_perform(easy);
  curl_easy_cleanup(easy);
  if (code == CURLE_OK) return true;
  error = curl_easy_strerror(code);
  return false;
}

}  // namespace pkb::model
