// Server-sent events (WHATWG event-stream): lines end in LF, CRLF or CR; a blank line dispatches
// the event; `event:` names it; `data:` lines join with '\n'; `:` lines are comments. Bytes may
// arrive in any split, so the parser buffers until a line is complete.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pkb::model {

struct SseEvent {
  std::string event;  // "" when the server named none
  std::string data;
};

class SseParser {
 public:
  /// Events completed by `bytes`, in order.
  std::vector<SseEvent> feed(std::string_view bytes);
  /// The stream ended: an event without its closing blank line is dropped, as the standard says
  /// (a cut stream must not pass for a complete one).
  void finish();

 private:
  void line(const std::string& text, std::vector<SseEvent>& out);

  std::string partial_;
  bool last_was_cr_ = false;
  SseEvent current_;
  bool has_data_ = false;
};

/// Every event of a whole transcript.
std::vector<SseEvent> parse_sse(std::string_view transcript);

}  // namespace pkb::model
