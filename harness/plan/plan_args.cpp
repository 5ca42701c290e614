// parse_arg: one kernel argument string of a plan ("x", "x[rank * N]", "peers(x)", "i32(N / W)",
// "f32(eps)", "signals", "ctx") to a ParsedArg.
#include <cstdlib>
#include <regex>

#include "harness/plan/plan_parsed.h"

namespace pkb::plan {
namespace {

const std::regex kCall(R"(\s*([a-z0-9]+)\s*\((.*)\)\s*)");
const std::regex kPointer(R"(\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[(.*)\])?\s*)");
const std::regex kName(R"(\s*([A-Za-z_][A-Za-z0-9_]*)\s*)");

constexpr const char* kForms =
    "\"NAME\", \"NAME[expr]\", \"peers(NAME)\", \"multicast(NAME)\", \"signals\", \"ctx\", "
    "\"i32(expr)\", \"u32(expr)\", \"i64(expr)\", \"u64(expr)\", \"f32(x)\" or \"f64(x)\"";

[[noreturn]] void fail(const std::string& where, const std::string& text, const std::string& why) {
  throw PlanError("plan: " + where + ": " + why + " in \"" + text + "\"");
}

ShapeExpr parse_int_expr(const std::string& body, const std::string& where, const std::string& text) {
  try {
    return ShapeExpr::parse(body);
  } catch (const Error& e) {
    fail(where, text, e.what());
  }
}

std::string buffer_name(const std::string& body, const std::string& where, const std::string& text) {
  std::smatch match;
  if (!std::regex_match(body, match, kName)) fail(where, text, "expected a buffer name");
  return match[1];
}

}  // namespace

ParsedArg parse_arg(const std::string& text, const std::string& where) {
  ParsedArg arg;
  arg.text = text;
  std::smatch match;
  if (text == "signals") {
    arg.kind = ArgKind::signals;
    return arg;
  }
  if (text == "ctx") {
    arg.kind = ArgKind::context;
    return arg;
  }
  if (std::regex_match(text, match, kCall)) {
    const std::string form = match[1];
    const std::string body = match[2];
    static const std::map<std::string, ArgKind> kIntegers = {
        {"i32", ArgKind::i32}, {"u32", ArgKind::u32}, {"i64", ArgKind::i64}, {"u64", ArgKind::u64}};
    if (form == "peers" || form == "multicast") {
      arg.kind = form == "peers" ? ArgKind::peers : ArgKind::multicast;
      arg.buffer = buffer_name(body, where, text);
    } else if (kIntegers.count(form)) {
      arg.kind = kIntegers.at(form);
      arg.expr = parse_int_expr(body, where, text);
    } else if (form == "f32" || form == "f64") {
      arg.kind = form == "f32" ? ArgKind::f32 : ArgKind::f64;
      char* end = nullptr;
      const double value = std::strtod(body.c_str(), &end);
      if (end != body.c_str() && std::regex_match(std::string(end), std::regex(R"(\s*)"))) {
        arg.literal = value;
      } else {
        arg.scalar = buffer_name(body, where, text);  // a problem scalar's name
      }
    } else {
      fail(where, text, "unknown argument form '" + form + "(...)': expected one of " + kForms);
    }
    return arg;
  }
  if (std::regex_match(text, match, kPointer)) {
    arg.kind = ArgKind::pointer;
    arg.buffer = match[1];
    if (match[2].matched) arg.expr = parse_int_expr(match[2], where, text);
    return arg;
  }
  fail(where, text, std::string("expected one of ") + kForms);
}

}  // namespace pkb::plan
