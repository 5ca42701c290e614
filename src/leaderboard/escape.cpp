// The two escapers. Markdown renderers (GitHub's included) pass raw HTML through, so markdown text
// gets entity escaping as well as backslashes.
#include "src/leaderboard/escape.h"

#include <cstring>

namespace pkb::leaderboard {

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string markdown_escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '\n' || ch == '\r') {
      out += ' ';
    } else if (ch == '&' || ch == '<' || ch == '>' || ch == '"') {
      out += html_escape(std::string(1, ch));
    } else if (std::strchr("\\`*_{}[]()#+-.!|~", ch) != nullptr) {
      out += '\\';
      out += ch;
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace pkb::leaderboard
