// Classifying kernel parameter types (see param_types.h). The spellings are those of the C++
// demangler, which NVRTC's probe names pass through: "float const*", "pkb::Peers<__half const>".
#include "harness/plan/param_types.h"

#include <map>
#include <vector>

namespace pkb::plan {
namespace {

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

/// `type` without the words const and volatile.
std::string unqualified(std::string type) {
  for (const std::string word : {"const", "volatile"}) {
    for (std::size_t at = type.find(word); at != std::string::npos; at = type.find(word, at)) {
      const bool starts = at == 0 || type[at - 1] == ' ' || type[at - 1] == '*' || type[at - 1] == '<';
      const std::size_t end = at + word.size();
      const bool ends = end == type.size() || type[end] == ' ' || type[end] == '*' || type[end] == '>';
      if (starts && ends) type.erase(at, word.size());
      else at = end;
    }
  }
  std::string collapsed;
  for (char c : type)
    if (!(c == ' ' && (collapsed.empty() || collapsed.back() == ' '))) collapsed += c;
  return trim(collapsed);
}

const std::map<std::string, DType>& floating_elements() {
  static const std::map<std::string, DType> table = {
      {"__nv_bfloat16", DType::bf16}, {"__half", DType::fp16},          {"float", DType::fp32},
      {"double", DType::fp64},        {"__nv_fp8_e4m3", DType::fp8e4m3}, {"__nv_fp8_e5m2", DType::fp8e5m2}};
  return table;
}

const std::map<std::string, std::size_t>& integer_elements() {
  static const std::map<std::string, std::size_t> table = {
      {"bool", 1},          {"short", 2},        {"unsigned short", 2},     {"int", 4},
      {"unsigned int", 4},  {"long", 8},         {"unsigned long", 8},      {"long long", 8},
      {"unsigned long long", 8}};
  return table;
}

}  // namespace

ParamType classify_param(const std::string& source_type) {
  ParamType out;
  const std::string type = unqualified(source_type);
  if (type.empty()) return out;
  if (type.back() == '*') {
    out.shape = ParamShape::pointer;
    out.element = unqualified(type.substr(0, type.size() - 1));
  } else if (type.rfind("pkb::Peers<", 0) == 0 && type.back() == '>') {
    out.shape = ParamShape::peers;
    out.element = unqualified(type.substr(11, type.size() - 12));
  } else if (type == "pkb::SignalPad") {
    out.shape = ParamShape::signal_pad;
  } else if (type == "pkb::Context") {
    out.shape = ParamShape::context;
  } else {
    out.shape = ParamShape::value;
  }
  return out;
}

std::optional<std::string> element_mismatch(const std::string& element, DType dtype) {
  const std::string holds = "holds " + std::string(dtype_name(dtype));
  if (const auto floating = floating_elements().find(element); floating != floating_elements().end()) {
    if (floating->second == dtype) return std::nullopt;
    return holds + ", not " + std::string(dtype_name(floating->second)) + " (" + element + ")";
  }
  if (const auto integer = integer_elements().find(element); integer != integer_elements().end()) {
    if (integer->second == dtype_size(dtype)) return std::nullopt;
    return holds + " (" + std::to_string(dtype_size(dtype)) + "-byte elements), not " + element + " (" +
           std::to_string(integer->second) + " bytes)";
  }
  return std::nullopt;  // raw access: void, char types, uint4, float4, structs
}

}  // namespace pkb::plan
