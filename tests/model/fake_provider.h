// A fake model provider for tests: a real HTTP server (cpp-httplib) on 127.0.0.1 at a free port,
// answering each POST with the next scripted reply, then with a default one. Reply builders speak
// each provider's format, streamed and not. Every wait in here is bounded.
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace pkb::test {

struct FakeReply {
  int status = 200;
  std::string content_type = "application/json";
  std::map<std::string, std::string> headers;
  std::string body;                 // sent as is when `chunks` is empty
  std::vector<std::string> chunks;  // sent chunked, one write each
  int latency_ms = 0;               // before the first byte
  int stall_before_chunk = -1;      // stall this long before chunk[index] ...
  int stall_ms = 0;                 // ... for this many ms
  bool abort_after_chunks = false;  // drop the connection instead of ending the body cleanly
};

struct SeenRequest {
  std::string path;  // with the query
  std::map<std::string, std::string> headers;
  std::string body;
};

class FakeProvider {
 public:
  /// On a free port, or on `port` (to stand in for a server that went away and came back).
  explicit FakeProvider(int port = 0);
  ~FakeProvider();
  FakeProvider(const FakeProvider&) = delete;
  FakeProvider& operator=(const FakeProvider&) = delete;

  int port() const { return port_; }
  std::string base_url(const std::string& path = "/v1") const;
  void script(std::vector<FakeReply> replies);                          // served first, in order
  void set_default(std::function<FakeReply(const SeenRequest&)> make);  // then this
  std::vector<SeenRequest> seen() const;
  int peak_in_flight() const { return peak_in_flight_; }

 private:
  FakeReply next(const SeenRequest& request);

  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::deque<FakeReply> scripted_;
  std::function<FakeReply(const SeenRequest&)> default_;
  std::vector<SeenRequest> seen_;
  std::atomic<int> in_flight_{0};
  std::atomic<int> peak_in_flight_{0};
};

// Replies in each provider's format. `text` is the visible answer; `thinking` goes where that
// provider puts reasoning. Streams split the text into a few deltas.
namespace fake {

FakeReply chat(const std::string& text, const std::string& finish = "stop",
               const std::string& thinking = "");
FakeReply chat_stream(const std::string& text, const std::string& finish = "stop",
                      const std::string& thinking = "", bool terminated = true);
FakeReply responses(const std::string& text, const std::string& status = "completed",
                    const std::string& reason = "");
FakeReply responses_stream(const std::string& text, const std::string& status = "completed",
                           const std::string& reason = "", bool terminated = true);
FakeReply anthropic(const std::string& text, const std::string& stop = "end_turn",
                    const std::string& thinking = "");
FakeReply anthropic_stream(const std::string& text, const std::string& stop = "end_turn",
                           const std::string& thinking = "", bool terminated = true);
FakeReply gemini(const std::string& text, const std::string& finish = "STOP",
                 const std::string& thinking = "");
FakeReply gemini_stream(const std::string& text, const std::string& finish = "STOP",
                        const std::string& thinking = "", bool terminated = true);
FakeReply error(int status, const std::string& body,
                std::map<std::string, std::string> headers = {});

/// Splits `text` into `parts` roughly equal pieces (at least one).
std::vector<std::string> split(const std::string& text, int parts);

}  // namespace fake
}  // namespace pkb::test
