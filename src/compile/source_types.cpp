// Reading kernel parameter types and names (see source_types.h). The types come from the compiler,
// so they are exact; the names come from a plain scan of the source and only decorate messages.
#include "src/compile/source_types.h"

#include <cctype>

#include "src/compile/blank_comments.h"

namespace pkb::compile {
namespace {

constexpr const char* kProbePrefix = "void pkb_signature_probe<void (";
constexpr const char* kProbeSuffix = ")>()";

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

/// `text` split at the commas outside brackets of any kind.
std::vector<std::string> split_top_level(const std::string& text) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string current;
  for (char c : text) {
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!trim(current).empty() || !parts.empty()) parts.push_back(trim(current));
  return parts;
}

/// The last identifier of one declared parameter, before any default value: "const float* __restrict__ x" -> "x".
std::string parameter_name(const std::string& declaration) {
  std::string text = declaration.substr(0, declaration.find('='));
  std::size_t end = text.size();
  while (end > 0 && !is_identifier_char(text[end - 1])) --end;
  std::size_t start = end;
  while (start > 0 && is_identifier_char(text[start - 1])) --start;
  const std::string name = text.substr(start, end - start);
  // A lone type ("float*", "int") has no name; neither do qualifiers.
  const bool only_word = trim(text.substr(0, start)).empty();
  if (only_word || name == "__restrict__" || name == "const" || name == "volatile") return "";
  if (std::isdigit(static_cast<unsigned char>(name[0]))) return "";
  return name;
}

}  // namespace

const char* const kSignatureProbeSource =
    "\n// pkb: the kernels' parameter types, read back from this probe's mangled names\n"
    "template <class F> __global__ void pkb_signature_probe() {}\n";

std::string signature_probe_expression(const std::string& kernel) {
  return "pkb_signature_probe<decltype(" + kernel + ")>";
}

std::vector<std::string> probe_parameter_types(const std::string& demangled) {
  const std::string prefix = kProbePrefix, suffix = kProbeSuffix;
  if (demangled.size() < prefix.size() + suffix.size() || demangled.compare(0, prefix.size(), prefix) != 0 ||
      demangled.compare(demangled.size() - suffix.size(), suffix.size(), suffix) != 0)
    return {};
  const std::string list = demangled.substr(prefix.size(), demangled.size() - prefix.size() - suffix.size());
  if (trim(list).empty()) return {};
  return split_top_level(list);
}

std::vector<std::string> source_parameter_names(const std::string& source, const std::string& kernel) {
  const std::string text = blank_comments(source);
  for (std::size_t at = text.find(kernel); at != std::string::npos; at = text.find(kernel, at + 1)) {
    const std::size_t after = at + kernel.size();
    if ((at > 0 && is_identifier_char(text[at - 1])) || (after < text.size() && is_identifier_char(text[after])))
      continue;
    // A definition: "__global__" before the name (on the same declaration) and "(" after it.
    const std::size_t statement = text.find_last_of(";}", at);
    const std::size_t from = statement == std::string::npos ? 0 : statement + 1;
    if (text.substr(from, at - from).find("__global__") == std::string::npos) continue;
    std::size_t open = after;
    while (open < text.size() && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
    if (open >= text.size() || text[open] != '(') continue;
    int depth = 0;
    std::size_t close = open;
    for (; close < text.size(); ++close) {
      if (text[close] == '(') ++depth;
      if (text[close] == ')' && --depth == 0) break;
    }
    if (close >= text.size()) return {};
    std::vector<std::string> names;
    const std::string list = text.substr(open + 1, close - open - 1);
    if (trim(list).empty() || trim(list) == "void") return {};
    for (const std::string& declaration : split_top_level(list)) names.push_back(parameter_name(declaration));
    return names;
  }
  return {};
}

}  // namespace pkb::compile
