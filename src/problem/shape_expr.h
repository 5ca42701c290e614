// Integer expressions over dims, W and rank, as written in problem.json shapes and group sizes:
// + - * / % (integer, / truncates toward zero), unary minus, parentheses, comparisons
// (== != < <= > >=, giving 0 or 1), and the functions ceil_div(a,b), min(a,b), max(a,b) and
// select(cond, a, b). Parsed once when problem.json loads; evaluated per rank.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pkb::problem {

/// The names an expression may use and their values.
using ExprEnv = std::map<std::string, std::int64_t>;

class ShapeExpr {
 public:
  /// Throws pkb::Error with the position and what was expected on a syntax error.
  static ShapeExpr parse(const std::string& text);

  /// Throws pkb::Error naming the variable when it is missing from `env`, or on division by zero.
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
