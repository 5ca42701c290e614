// A recursive-descent parser and tree evaluator for ShapeExpr. Precedence, low to high:
// comparison, + -, * / %, unary minus, primary (number, name, call, parenthesis).
#include "src/problem/shape_expr.h"

#include <cctype>
#include <cstdint>
#include <set>

#include "src/common/error.h"

namespace pkb::problem {

struct ShapeExpr::Node {
  enum class Kind { number, variable, unary_minus, binary, call };
  Kind kind = Kind::number;
  std::int64_t value = 0;
  std::string name;  // variable name, operator ("+", "<=", ...) or function name
  std::vector<std::shared_ptr<const Node>> args;
};

namespace {

using NodePtr = std::shared_ptr<const ShapeExpr::Node>;
using Node = ShapeExpr::Node;

struct FunctionInfo {
  const char* name;
  std::size_t arity;
};
constexpr FunctionInfo kFunctions[] = {{"ceil_div", 2}, {"min", 2}, {"max", 2}, {"select", 3}};

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  NodePtr parse_all() {
    NodePtr node = parse_comparison();
    skip_space();
    if (pos_ != text_.size()) fail("expected an operator or the end");
    return node;
  }

 private:
  [[noreturn]] void fail(const std::string& expected) const {
    const std::string found =
        pos_ < text_.size() ? "'" + std::string(1, text_[pos_]) + "'" : "the end";
    throw Error("expression \"" + text_ + "\": at column " + std::to_string(pos_ + 1) +
                ": " + expected + ", got " + found);
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool accept(const std::string& token) {
    skip_space();
    if (text_.compare(pos_, token.size(), token) != 0) return false;
    pos_ += token.size();
    return true;
  }

  static NodePtr binary(const std::string& op, NodePtr lhs, NodePtr rhs) {
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::binary;
    node->name = op;
    node->args = {std::move(lhs), std::move(rhs)};
    return node;
  }

  NodePtr parse_comparison() {
    NodePtr lhs = parse_sum();
    // Two-character operators first so "<=" is not read as "<".
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
      if (accept(op)) return binary(op, lhs, parse_sum());
    }
    return lhs;
  }

  NodePtr parse_sum() {
    NodePtr lhs = parse_product();
    for (;;) {
      if (accept("+")) lhs = binary("+", lhs, parse_product());
      else if (accept("-")) lhs = binary("-", lhs, parse_product());
      else return lhs;
    }
  }

  NodePtr parse_product() {
    NodePtr lhs = parse_unary();
    for (;;) {
      if (accept("*")) lhs = binary("*", lhs, parse_unary());
      else if (accept("/")) lhs = binary("/", lhs, parse_unary());
      else if (accept("%")) lhs = binary("%", lhs, parse_unary());
      else return lhs;
    }
  }

  NodePtr parse_unary() {
    if (accept("-")) {
      auto node = std::make_shared<Node>();
      node->kind = Node::Kind::unary_minus;
      node->args = {parse_unary()};
      return node;
    }
    return parse_primary();
  }

  NodePtr parse_primary() {
    skip_space();
    if (accept("(")) {
      NodePtr inner = parse_comparison();
      if (!accept(")")) fail("expected ')'");
      return inner;
    }
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      auto node = std::make_shared<Node>();
      const std::size_t start = pos_;
      bool overflow = false;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        overflow |= __builtin_mul_overflow(node->value, 10, &node->value);
        overflow |= __builtin_add_overflow(node->value, text_[pos_++] - '0', &node->value);
      }
      if (overflow)
        throw Error("expression \"" + text_ + "\": the number " + text_.substr(start, pos_ - start) +
                    " does not fit a 64-bit signed integer");
      return node;
    }
    if (pos_ < text_.size() &&
        (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      const std::size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      const std::string name = text_.substr(start, pos_ - start);
      if (accept("(")) {
        if (name == "group_rank" || name == "group_size") return parse_group_name(name);
        return parse_call(name, start);
      }
      auto node = std::make_shared<Node>();
      node->kind = Node::Kind::variable;
      node->name = name;
      return node;
    }
    fail("expected a number, a name or '('");
  }

  // group_rank(NAME) and group_size(NAME) take a group's name, not a value: each is one variable,
  // named as written without spaces, that the caller's environment defines per group.
  NodePtr parse_group_name(const std::string& function) {
    skip_space();
    const std::size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    if (pos_ == start || std::isdigit(static_cast<unsigned char>(text_[start]))) {
      pos_ = start;
      fail("expected a group name");
    }
    const std::string group = text_.substr(start, pos_ - start);
    if (!accept(")")) fail("expected ')'");
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::variable;
    node->name = function + "(" + group + ")";
    return node;
  }

  NodePtr parse_call(const std::string& name, std::size_t start) {
    const FunctionInfo* function = nullptr;
    for (const auto& candidate : kFunctions)
      if (name == candidate.name) function = &candidate;
    if (function == nullptr) {
      pos_ = start;
      fail("expected one of the functions ceil_div, min, max, select, group_rank, group_size");
    }
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::call;
    node->name = name;
    do {
      node->args.push_back(parse_comparison());
    } while (accept(","));
    if (!accept(")")) fail("expected ',' or ')'");
    if (node->args.size() != function->arity) {
      throw Error("expression \"" + text_ + "\": " + name + " takes " +
                  std::to_string(function->arity) + " arguments, got " +
                  std::to_string(node->args.size()));
    }
    return node;
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

// Every operation is checked: a wrapped product would turn a huge size into a small one.
std::int64_t eval_node(const Node& node, const ExprEnv& env, const std::string& text) {
  auto arg = [&](std::size_t index) { return eval_node(*node.args[index], env, text); };
  auto divisor = [&](std::int64_t value) {
    if (value == 0) throw Error("expression \"" + text + "\": division by zero");
    return value;
  };
  auto overflows = [&](std::int64_t a, const char* op, std::int64_t b) {
    throw Error("expression \"" + text + "\": " + std::to_string(a) + " " + op + " " + std::to_string(b) +
                " overflows 64-bit integers");
  };
  switch (node.kind) {
    case Node::Kind::number:
      return node.value;
    case Node::Kind::variable: {
      auto found = env.find(node.name);
      if (found == env.end() && node.name.back() == ')') {  // group_rank(NAME), group_size(NAME)
        const std::size_t open = node.name.find('(');
        throw UnknownNameError("expression \"" + text + "\": unknown group '" +
                               node.name.substr(open + 1, node.name.size() - open - 2) + "' in " +
                               node.name);
      }
      if (found == env.end()) throw UnknownNameError("expression \"" + text + "\": unknown name '" + node.name + "'");
      return found->second;
    }
    case Node::Kind::unary_minus: {
      const std::int64_t a = arg(0);
      std::int64_t result = 0;
      if (__builtin_sub_overflow(std::int64_t{0}, a, &result)) overflows(0, "-", a);
      return result;
    }
    case Node::Kind::call:
      if (node.name == "select") return arg(0) != 0 ? arg(1) : arg(2);
      if (node.name == "min") return std::min(arg(0), arg(1));
      if (node.name == "max") return std::max(arg(0), arg(1));
      {  // ceil_div, for non-negative operands as in sizes; a / b rounded up, no a + b - 1
        const std::int64_t a = arg(0), b = divisor(arg(1));
        if (a == INT64_MIN && b == -1) overflows(a, "ceil_div", b);
        return a / b + (a % b != 0 && (a < 0) == (b < 0));
      }
    case Node::Kind::binary: {
      const std::int64_t a = arg(0), b = arg(1);
      const std::string& op = node.name;
      std::int64_t result = 0;
      const bool arithmetic = op == "+" || op == "-" || op == "*";
      if (arithmetic) {
        const bool overflow = op == "+"   ? __builtin_add_overflow(a, b, &result)
                              : op == "-" ? __builtin_sub_overflow(a, b, &result)
                                          : __builtin_mul_overflow(a, b, &result);
        if (overflow) overflows(a, op.c_str(), b);
        return result;
      }
      if (op == "/" || op == "%") {
        divisor(b);
        if (a == INT64_MIN && b == -1) overflows(a, op.c_str(), b);  // the one wrapping quotient
        return op == "/" ? a / b : a % b;
      }
      if (op == "==") return a == b;
      if (op == "!=") return a != b;
      if (op == "<") return a < b;
      if (op == "<=") return a <= b;
      if (op == ">") return a > b;
      return a >= b;
    }
  }
  return 0;
}

void collect_variables(const Node& node, std::set<std::string>& out) {
  if (node.kind == Node::Kind::variable) out.insert(node.name);
  for (const auto& child : node.args) collect_variables(*child, out);
}

}  // namespace

ShapeExpr ShapeExpr::parse(const std::string& text) {
  ShapeExpr expr;
  expr.text_ = text;
  expr.root_ = Parser(text).parse_all();
  return expr;
}

std::int64_t ShapeExpr::eval(const ExprEnv& env) const {
  PKB_ASSERT(root_ != nullptr, "ShapeExpr evaluated before parse");
  return eval_node(*root_, env, text_);
}

std::vector<std::string> ShapeExpr::variables() const {
  std::set<std::string> names;
  if (root_) collect_variables(*root_, names);
  return {names.begin(), names.end()};
}

}  // namespace pkb::problem
