// compile_error_excerpt: NVRTC prints each diagnostic as "candidate.cu(LINE): error: TEXT" at the
// start of a line, then the offending source line and a caret line, both indented, then a blank
// line; it ends with "N errors detected in the compilation of ...".
#include "src/feedback/compile_errors.h"

#include <cctype>
#include <sstream>
#include <vector>

#include "src/feedback/redact.h"

namespace pkb::feedback {
namespace {

// Sized so a typical excerpt stays well under a screen of text: enough for the model to see the
// pattern of its mistakes, not so much that the log drowns the instructions around it.
constexpr int kMaxErrors = 5;
constexpr std::size_t kMaxLines = 40;
constexpr std::size_t kMaxLineChars = 300;
constexpr int kContextLines = 2;  // the source line and the caret line
static_assert(kMaxErrors * (1 + kContextLines) <= static_cast<int>(kMaxLines),
              "five errors with their context lines must fit the line budget");

const char* const kProgramName = "candidate.cu";

bool contains_error(const std::string& line) {
  std::string lower(line);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.find("error") == std::string::npos) return false;
  // The closing count ("3 errors detected in the compilation of ...") is not an error itself.
  return lower.find("detected in the compilation of") == std::string::npos;
}

// Source lines are echoed indented, so an unindented line is NVRTC's own: a diagnostic.
bool is_error_line(const std::string& line) {
  return !line.empty() && !std::isspace(static_cast<unsigned char>(line[0])) &&
         line.rfind("[... ", 0) != 0 && contains_error(line);
}

bool is_context_line(const std::string& line) {
  return !line.empty() && std::isspace(static_cast<unsigned char>(line[0])) &&
         line.find_first_not_of(" \t") != std::string::npos;
}

std::vector<std::string> compiler_lines(const std::string& log) {
  std::vector<std::string> lines;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line == "--- worker ---") break;
    lines.push_back(line);
  }
  return lines;
}

}  // namespace

std::string compile_error_excerpt(const std::string& log) {
  const std::vector<std::string> lines = compiler_lines(log);
  std::vector<std::string> kept;
  int errors = 0;
  int shown = 0;
  for (std::size_t index = 0; index < lines.size(); ++index) {
    if (!is_error_line(lines[index])) continue;
    ++errors;
    std::vector<std::string> block = {lines[index]};
    // Source lines of pkb's own headers are the harness's code: only the candidate's are shown.
    if (lines[index].rfind(kProgramName, 0) == 0)
      for (std::size_t next = index + 1;
           next < lines.size() && next <= index + kContextLines && is_context_line(lines[next]);
           ++next)
        block.push_back(lines[next]);
    if (shown == kMaxErrors) continue;
    ++shown;
    for (const auto& line : block) kept.push_back(clip_line(redact_paths(line), kMaxLineChars));
  }
  if (errors == 0) return "";
  std::string out;
  for (const auto& line : kept) out += line + "\n";
  if (errors > shown)
    out += "(" + std::to_string(errors - shown) + " more error" + (errors - shown == 1 ? "" : "s") +
           " not shown)\n";
  return out;
}

}  // namespace pkb::feedback
