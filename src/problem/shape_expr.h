// Integer expressions over dims, W and rank, as written in problem.json shapes and group sizes:
// + - * / % (integer, / truncates toward zero), unary minus, parentheses, comparisons
// (== != < <= > >=, giving 0 or 1), and the functions ceil_div(a,b), min(a,b), max(a,b) and
// select(cond, a, b); group_rank(NAME) and group_size(NAME) read the variables of those names,
// which only plans define (src/problem/groups.h). Parsed once when problem.json loads; evaluated
// per rank.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "src/common/error.h"

namespace pkb::problem {

/// Thrown by ShapeExpr::eval for a name that `env` lacks (a caller may list the names it offers).
class UnknownNameError : public Error {
 public:
  using Error::Error;
};

/// The names an expression may use and their values.
using ExprEnv = std::map<std::string, std::int64_t>;

class ShapeExpr {
 public:
  /// Throws pkb::Error with the position and what was expected on a syntax error.
  static ShapeExpr parse(const std::string& text);

  /// Throws UnknownNameError naming a variable missing from `env`; pkb::Error on division by zero
  /// or when a number or an operation overflows 64-bit signed integers.
  std::int64_t eval(const ExprEnv& env) const;

  /// Every variable the expression mentions, for checking against the declared dims at load time.
  std::vector<std::string> variables() const;

  const std::string& text() const { return text_; }

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

}  // namespace pkb::problem
