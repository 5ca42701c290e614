// The SSE line parser. A CR followed by LF in the next read is one line end, not two.
#include "src/model/sse.h"

namespace pkb::model {

std::vector<SseEvent> SseParser::feed(std::string_view bytes) {
  std::vector<SseEvent> out;
  for (char c : bytes) {
    if (c == '\n' && last_was_cr_) {
      last_was_cr_ = false;
      continue;
    }
    last_was_cr_ = c == '\r';
    if (c == '\n' || c == '\r') {
      line(partial_, out);
      partial_.clear();
    } else {
      partial_ += c;
    }
  }
  return out;
}

void SseParser::finish() {
  partial_.clear();
  current_ = {};
  has_data_ = false;
}

void SseParser::line(const std::string& text, std::vector<SseEvent>& out) {
  if (text.empty()) {
    if (has_data_) out.push_back(current_);
    current_ = {};
    has_data_ = false;
    return;
  }
  if (text[0] == ':') return;
  const std::size_t colon = text.find(':');
  const std::string field = text.substr(0, colon);
  std::string value = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (!value.empty() && value[0] == ' ') value.erase(0, 1);
  if (field == "event") {
    current_.event = value;
  } else if (field == "data") {
    if (has_data_) current_.data += '\n';
    current_.data += value;
    has_data_ = true;
  }
}

std::vector<SseEvent> parse_sse(std::string_view transcript) {
  SseParser parser;
  auto events = parser.feed(transcript);
  parser.finish();
  return events;
}

}  // namespace pkb::model
