// blank_comments (see blank_comments.h).
#include "src/compile/blank_comments.h"

namespace pkb::compile {

std::string blank_comments(const std::string& text) {
  std::string out = text;
  for (std::size_t at = 0; at < out.size(); ++at) {
    if (out[at] == '"') {  // a string literal: skipped whole, so "//" inside it is no comment
      const std::size_t end = out.find('"', at + 1);
      at = end == std::string::npos ? out.size() : end;
    } else if (out.compare(at, 2, "//") == 0) {
      for (; at < out.size() && out[at] != '\n'; ++at) out[at] = ' ';
    } else if (out.compare(at, 2, "/*") == 0) {
      const std::size_t end = out.find("*/", at + 2);
      const std::size_t stop = end == std::string::npos ? out.size() : end + 2;
      for (; at < stop; ++at)
        if (out[at] != '\n') out[at] = ' ';
      --at;
    }
  }
  return out;
}

}  // namespace pkb::compile
