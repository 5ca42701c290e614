// The fence scanner: line by line, so a fence inside a block (a shorter one, or one of the other
// character) is body text, as in CommonMark.
#include "src/extract/fence_scanner.h"

#include <algorithm>
#include <cctype>

namespace pkb::extract {
namespace {

constexpr int kMaxFenceIndent = 3;  // CommonMark: four spaces would make an indented code block
constexpr int kMinFenceLength = 3;

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  for (std::size_t index = 0; index < text.size(); ++index) {
    const char c = text[index];
    if (c == '\n' || c == '\r') {
      if (c == '\r' && index + 1 < text.size() && text[index + 1] == '\n') ++index;
      lines.push_back(line);
      line.clear();
    } else {
      line += c;
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

std::string trim(const std::string& text) {
  std::size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

struct Fence {
  char mark = 0;
  int length = 0;
  std::string rest;  // what follows the fence characters
};

// A line that opens or closes a fence, or nothing.
bool parse_fence(const std::string& line, Fence& fence) {
  std::size_t pos = 0;
  while (pos < line.size() && line[pos] == ' ' && static_cast<int>(pos) <= kMaxFenceIndent) ++pos;
  if (static_cast<int>(pos) > kMaxFenceIndent || pos >= line.size()) return false;
  const char mark = line[pos];
  if (mark != '`' && mark != '~') return false;
  std::size_t end = pos;
  while (end < line.size() && line[end] == mark) ++end;
  if (static_cast<int>(end - pos) < kMinFenceLength) return false;
  fence.mark = mark;
  fence.length = static_cast<int>(end - pos);
  fence.rest = line.substr(end);
  // A backtick fence's info string may not contain backticks (that is inline code).
  return !(mark == '`' && fence.rest.find('`') != std::string::npos);
}

std::string first_word_lower(const std::string& info) {
  std::string word;
  for (char c : info) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '{' || c == ',') break;
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return word;
}

}  // namespace

std::vector<FencedBlock> scan_fenced_blocks(const std::string& text) {
  std::vector<FencedBlock> blocks;
  const auto lines = split_lines(text);
  Fence open;
  bool in_block = false;
  for (std::size_t index = 0; index < lines.size(); ++index) {
    Fence fence;
    const bool is_fence = parse_fence(lines[index], fence);
    if (!in_block) {
      if (!is_fence) continue;
      open = fence;
      in_block = true;
      FencedBlock block;
      block.info = trim(fence.rest);
      block.language = first_word_lower(block.info);
      block.first_line = static_cast<int>(index) + 1;
      blocks.push_back(block);
    } else if (is_fence && fence.mark == open.mark && fence.length >= open.length &&
               trim(fence.rest).empty()) {
      blocks.back().closed = true;
      in_block = false;
    } else {
      blocks.back().body += lines[index] + "\n";
    }
  }
  return blocks;
}

std::string strip_think_spans(const std::string& text) {
  static const std::string kOpen = "<think>", kClose = "</think>";
  std::string out;
  std::size_t pos = 0;
  // A close tag before any open tag: the span began in the chat template, before the answer.
  const std::size_t first_open = text.find(kOpen);
  const std::size_t first_close = text.find(kClose);
  if (first_close != std::string::npos &&
      (first_open == std::string::npos || first_close < first_open))
    pos = first_close + kClose.size();
  while (pos < text.size()) {
    const std::size_t open = text.find(kOpen, pos);
    if (open == std::string::npos) {
      out += text.substr(pos);
      break;
    }
    out += text.substr(pos, open - pos);
    const std::size_t close = text.find(kClose, open + kOpen.size());
    if (close == std::string::npos) break;  // never closed: the rest is reasoning
    pos = close + kClose.size();
  }
  return out;
}

}  // namespace pkb::extract
