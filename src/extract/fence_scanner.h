// Fenced code blocks of a Markdown answer, found with CommonMark's fence rules: an opening line of
// three or more backticks or tildes (indented at most three spaces) with an info string, closed by
// a line of the same character at least as long with nothing else on it.
#pragma once

#include <string>
#include <vector>

namespace pkb::extract {

struct FencedBlock {
  std::string info;      // the whole info string, trimmed ("cuda title=\"k.cu\"")
  std::string language;  // its first word, lowercased ("cuda")
  std::string body;      // the lines between the fences, each ending in '\n'
  bool closed = false;   // false: the fence ran to the end of the text
  int first_line = 0;    // 1-based line of the opening fence
};

/// Every fenced block of `text`, in order. Line ends may be LF, CRLF or CR.
std::vector<FencedBlock> scan_fenced_blocks(const std::string& text);

/// `text` without reasoning spans a model wrote into its visible answer: every <think>...</think>
/// span; everything before a stray </think> (the template opened the span); everything after an
/// unclosed <think> (the model never left it).
std::string strip_think_spans(const std::string& text);

}  // namespace pkb::extract
