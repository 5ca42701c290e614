// Redaction of harness text for feedback (see redact.h).
#include "src/feedback/redact.h"

#include <cctype>
#include <cstring>

namespace pkb::feedback {
namespace {

bool ends_path(char c) {
  return std::isspace(static_cast<unsigned char>(c)) || std::strchr("\"'()<>,:;[]{}`", c);
}

bool starts_path(const std::string& line, std::size_t pos) {
  return line[pos] == '/' && (pos == 0 || std::strchr(" \t\"'(<=[`", line[pos - 1]));
}

// "/a/b/include/pkb/x.cuh" -> "pkb/x.cuh": the include-relative name is the one a candidate
// writes in #include; anything else keeps its file name only.
std::string short_path(const std::string& path) {
  const std::size_t include = path.rfind("/include/");
  if (include != std::string::npos) return path.substr(include + std::strlen("/include/"));
  return path.substr(path.rfind('/') + 1);
}

// "name.cpp:123": a C++ or CUDA source location, as PKB_CU_CHECK and PKB_ASSERT append them.
bool is_source_location(const std::string& text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon + 1 == text.size()) return false;
  for (std::size_t index = colon + 1; index < text.size(); ++index)
    if (!std::isdigit(static_cast<unsigned char>(text[index]))) return false;
  const std::string file = text.substr(0, colon);
  for (const char* ext : {".cpp", ".cc", ".h", ".hpp", ".cu", ".cuh", ".inc"}) {
    const std::size_t size = std::strlen(ext);
    if (file.size() > size && file.compare(file.size() - size, size, ext) == 0) return true;
  }
  return false;
}

std::string drop_source_locations(const std::string& line) {
  std::string out;
  std::size_t pos = 0;
  while (pos < line.size()) {
    const std::size_t open = line.find('(', pos);
    const std::size_t close = open == std::string::npos ? open : line.find(')', open);
    if (close == std::string::npos) break;
    const std::string inside = line.substr(open + 1, close - open - 1);
    if (inside.find(' ') == std::string::npos && is_source_location(inside)) {
      std::size_t cut = open;
      while (cut > pos && line[cut - 1] == ' ') --cut;
      out.append(line, pos, cut - pos);
    } else {
      out.append(line, pos, close + 1 - pos);
    }
    pos = close + 1;
  }
  out.append(line, pos, std::string::npos);
  return out;
}

}  // namespace

std::string redact_paths(const std::string& line) {
  std::string out;
  std::size_t pos = 0;
  while (pos < line.size()) {
    if (!starts_path(line, pos)) {
      out += line[pos++];
      continue;
    }
    std::size_t end = pos;
    while (end < line.size() && !ends_path(line[end])) ++end;
    const std::string token = line.substr(pos, end - pos);
    // One slash alone ("a / b", "/2") is arithmetic or a fraction, not a path.
    out += token.find('/', 1) == std::string::npos ? token : short_path(token);
    pos = end;
  }
  return drop_source_locations(out);
}

std::string drop_values(const std::string& message) {
  const std::size_t got = message.find(" got ");
  if (got == std::string::npos) return message;
  std::size_t end = got;
  while (end > 0 && (message[end - 1] == ':' || message[end - 1] == ' ')) --end;
  return message.substr(0, end);
}

std::string clip_line(const std::string& line, std::size_t limit) {
  if (line.size() <= limit) return line;
  return line.substr(0, limit) + " [...]";
}

}  // namespace pkb::feedback
