// The transport of a pkb built without libcurl (a GPU machine that only evaluates): every call fails
// at once, not retried, saying how to get one. replay:DIR needs no transport.
#include "src/model/http_transport.h"

namespace pkb::model {
namespace {

constexpr const char* kNoCurl =
    "this pkb was built without libcurl, so it cannot call model APIs (install libcurl4-openssl-dev "
    "and rebuild, or generate on another machine and use --model replay:DIR here)";

}  // namespace

void http_global_init() {}

HttpResponse http_post(const HttpRequest&, const HttpTimeouts&, const std::atomic<bool>*) {
  HttpResponse response;
  response.transport_failed = true;
  response.retryable = false;
  response.error = kNoCurl;
  return response;
}

bool http_can_connect(const std::string&, int, std::string& error) {
  error = kNoCurl;
  return false;
}

}  // namespace pkb::model
