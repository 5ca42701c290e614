// Kernel signatures from PTX text: the plan's arguments are checked against these sizes before
// anything runs. A parameter is declared as
//   .param .TYPE [.ptr [.SPACE] [.align N]] NAME        (a scalar or pointer)
//   .param .align N .TYPE NAME[COUNT]                   (a struct by value, as bytes)
#include <cctype>
#include <string>

#include "src/common/error.h"
#include "src/compile/blank_comments.h"
#include "src/compile/compile.h"

namespace pkb::compile {
namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' ||
         c == '.';
}

std::vector<std::string> tokens(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '[' || c == ']') {
      if (!current.empty()) out.push_back(current);
      current.clear();
      if (c == '[' || c == ']') out.push_back(std::string(1, c));
    } else {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

// Bytes of a PTX fundamental type (.u32, .b8, .f64, ...), 0 when `type` is none.
std::size_t type_size(const std::string& type) {
  if (type.size() < 3 || type[0] != '.' || std::string("ubsf").find(type[1]) == std::string::npos)
    return 0;
  const std::string bits = type.substr(2);
  if (bits == "8") return 1;
  if (bits == "16") return 2;
  if (bits == "32") return 4;
  if (bits == "64") return 8;
  return 0;
}

std::size_t to_size(const std::string& text, const std::string& where) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw Error(where + ": expected a number, got '" + text + "'");
  return std::stoul(text);
}

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

KernelParam parse_param(const std::string& raw, const std::string& where) {
  const std::string text = trimmed(raw);
  const std::vector<std::string> words = tokens(text);
  if (words.empty() || words[0] != ".param")
    throw Error(where + ": expected '.param', got '" + text + "'");
  KernelParam param;
  std::size_t element = 0, count = 1, align = 0;
  bool after_ptr = false;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word == ".ptr") {
      after_ptr = true;
    } else if (word == ".align" && i + 1 < words.size()) {
      const std::size_t value = to_size(words[++i], where);
      if (!after_ptr) align = value;  // after .ptr it is the pointee's alignment, not the param's
    } else if (word == "[" && i + 2 < words.size() && words[i + 2] == "]") {
      count = to_size(words[i + 1], where);
      i += 2;
    } else if (element == 0 && type_size(word) > 0) {
      element = type_size(word);
      param.ptx_type = word;
    }
  }
  if (element == 0) throw Error(where + ": unknown parameter type in '" + text + "'");
  if (count != 1 || text.find('[') != std::string::npos)
    param.ptx_type += "[" + std::to_string(count) + "]";
  param.size = element * count;
  param.align = align ? align : element;
  return param;
}

}  // namespace

std::vector<KernelSignature> parse_ptx_entries(const std::string& ptx) {
  const std::string text = blank_comments(ptx);
  std::vector<KernelSignature> kernels;
  for (std::size_t at = text.find(".entry"); at != std::string::npos;
       at = text.find(".entry", at + 1)) {
    const bool whole_word = (at == 0 || std::isspace(static_cast<unsigned char>(text[at - 1]))) &&
                            at + 6 < text.size() &&
                            std::isspace(static_cast<unsigned char>(text[at + 6]));
    if (!whole_word) continue;
    std::size_t pos = at + 6;
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    KernelSignature kernel;
    while (pos < text.size() && is_name_char(text[pos])) kernel.name += text[pos++];
    if (kernel.name.empty()) throw Error("ptx: .entry without a name");
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos < text.size() && text[pos] == '(') {
      const std::size_t close = text.find(')', pos);
      if (close == std::string::npos)
        throw Error("ptx: entry " + kernel.name + ": unclosed parameter list");
      const std::string list = text.substr(pos + 1, close - pos - 1);
      std::size_t start = 0;
      while (list.find_first_not_of(" \t\r\n", start) != std::string::npos) {
        const std::size_t comma = list.find(',', start);
        const std::string where =
            "ptx: entry " + kernel.name + ": param " + std::to_string(kernel.params.size());
        kernel.params.push_back(parse_param(list.substr(start, comma - start), where));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    }
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

}  // namespace pkb::compile
