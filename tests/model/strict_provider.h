// A strict fake provider: on top of FakeProvider (a real server on loopback), it checks each
// request the way the real APIs do for a few known models, one per family of issue 23, and answers
// a request a real API would reject with that API's own 400: output caps, temperature beside
// reasoning, the thinking shape of each model family, reasoning summaries for an organization
// without verification, vLLM's context length. The rules here are written from the providers'
// documentation, not from pkb's model table, so the two can disagree.
// An accepted request gets an answer in the provider's format, streamed or not; a reasoning model
// that would stream nothing while it thinks stays silent for `silent_ms` first.
#pragma once

#include <string>
#include <vector>

#include "tests/model/fake_provider.h"

namespace pkb::test {

struct StrictOptions {
  std::string answer;  // the visible answer of every accepted request
  int silent_ms = 0;   // before the first byte of a reasoning model that streams no thoughts
};

/// Makes `server` strict: its default reply follows the rules above.
void make_strict(FakeProvider& server, StrictOptions options);

/// The reply a strict server gives `request`.
FakeReply strict_reply(const SeenRequest& request, const StrictOptions& options);

/// "PROVIDER:MODEL" for one model of each family the strict server knows (issue 23, items 1-5).
std::vector<std::string> strict_model_names();

}  // namespace pkb::test
