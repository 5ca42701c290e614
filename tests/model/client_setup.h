// What the model client tests share: a short-deadline client configuration, one request, and
// run(): script the fake provider's replies and make one generate() call.
#pragma once

#include <string>
#include <vector>

#include "src/model/model_client.h"
#include "tests/model/fake_provider.h"

namespace pkb::model::client_test {

using test::FakeProvider;
using test::FakeReply;
namespace fake = test::fake;

inline const std::string kKey = "sk-test-SECRET-0123";
inline const std::string kAnswer =
    "Plan first.\n```cuda\nextern \"C\" __global__ void k() {}\n```\n```json\n{\"steps\": "
    "[]}\n```\n";
inline const std::string kThinking = "Draft:\n```cuda\n__global__ void draft() {}\n```\n";

inline ClientOptions fast_options(bool stream) {
  ClientOptions options;
  options.stream = stream;
  options.timeouts = {1000, 300, 5000};
  options.max_attempts = 4;
  options.max_attempts_other = 3;
  options.backoff = {0.01, 0.05, 2.0};
  return options;
}

inline ModelSpec spec_for(const std::string& name, const FakeProvider& server) {
  const bool gemini = name.rfind("gemini:", 0) == 0;
  return parse_model_name(name, server.base_url(gemini ? "/v1beta" : "/v1"));
}

inline ModelRequest request() {
  ModelRequest out;
  out.user = "write a kernel";
  out.max_tokens = 1000;
  out.label = "001_allreduce#0";
  return out;
}

inline ModelOutcome run(FakeProvider& server, const std::string& name, bool stream,
                        std::vector<FakeReply> replies, ClientOptions options) {
  server.script(std::move(replies));
  HttpModelClient client(spec_for(name, server), kKey, options);
  return client.generate(request());
}

inline ModelOutcome run(FakeProvider& server, const std::string& name, bool stream,
                        std::vector<FakeReply> replies) {
  return run(server, name, stream, std::move(replies), fast_options(stream));
}

}  // namespace pkb::model::client_test
