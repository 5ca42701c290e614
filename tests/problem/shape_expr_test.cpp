// ShapeExpr: precedence, functions, comparisons, variables and located syntax errors.
#include "src/problem/shape_expr.h"

#include <gtest/gtest.h>

#include "src/common/error.h"

namespace pkb::problem {
namespace {

std::int64_t eval(const std::string& text, const ExprEnv& env = {}) {
  return ShapeExpr::parse(text).eval(env);
}

std::string parse_error(const std::string& text) {
  try {
    ShapeExpr::parse(text);
  } catch (const Error& error) {
    return error.what();
  }
  return "no error";
}

TEST(ShapeExpr, FollowsArithmeticPrecedence) {
  EXPECT_EQ(eval("2 + 3 * 4"), 14);
  EXPECT_EQ(eval("(2 + 3) * 4"), 20);
  EXPECT_EQ(eval("20 / 3 % 4"), 2);  // left to right: (20 / 3) % 4
  EXPECT_EQ(eval("10 - 4 - 3"), 3);
  EXPECT_EQ(eval("-3 + 5"), 2);
  EXPECT_EQ(eval("2 * -3"), -6);
}

TEST(ShapeExpr, ReadsDimsWorldAndRank) {
  const ExprEnv env = {{"M", 6}, {"N", 4}, {"W", 8}, {"rank", 3}};
  EXPECT_EQ(eval("W * M", env), 48);
  EXPECT_EQ(eval("N / W + rank", env), 3);
}

TEST(ShapeExpr, EvaluatesCeilDivMinMaxSelect) {
  EXPECT_EQ(eval("ceil_div(10, 4)"), 3);
  EXPECT_EQ(eval("ceil_div(8, 4)"), 2);
  EXPECT_EQ(eval("min(3, 9)"), 3);
  EXPECT_EQ(eval("max(3, 9)"), 9);
  EXPECT_EQ(eval("select(rank == 0, W, 0)", {{"rank", 0}, {"W", 4}}), 4);
  EXPECT_EQ(eval("select(rank == 0, W, 0)", {{"rank", 2}, {"W", 4}}), 0);
  EXPECT_EQ(eval("max(ceil_div(7, 2), min(1, 2)) * 2"), 8);
}

TEST(ShapeExpr, ComparesToZeroOrOne) {
  EXPECT_EQ(eval("3 < 4"), 1);
  EXPECT_EQ(eval("3 >= 4"), 0);
  EXPECT_EQ(eval("4 <= 4"), 1);
  EXPECT_EQ(eval("1 != 1"), 0);
  EXPECT_EQ(eval("2 * (1 + 1 == 2)"), 2);
}

TEST(ShapeExpr, ListsItsVariablesOnce) {
  EXPECT_EQ(ShapeExpr::parse("M * N + M / W").variables(), (std::vector<std::string>{"M", "N", "W"}));
}

TEST(ShapeExpr, RejectsSyntaxErrorsWithTheColumn) {
  EXPECT_EQ(parse_error("M *"), "expression \"M *\": at column 4: expected a number, a name or '(', got the end");
  EXPECT_EQ(parse_error("(M + 1"), "expression \"(M + 1\": at column 7: expected ')', got the end");
  EXPECT_EQ(parse_error("M N"), "expression \"M N\": at column 3: expected an operator or the end, got 'N'");
  EXPECT_EQ(parse_error("floor(M)"), "expression \"floor(M)\": at column 1: expected one of the functions ceil_div, "
                                     "min, max, select, group_rank, group_size, got 'f'");
  EXPECT_EQ(parse_error("min(1)"), "expression \"min(1)\": min takes 2 arguments, got 1");
}

TEST(ShapeExpr, GroupRankAndGroupSizeNameAGroupAndReadItsVariables) {
  const ExprEnv env = {{"group_rank(tp)", 1}, {"group_size(tp)", 2}, {"N", 8}};
  EXPECT_EQ(eval("N / group_size( tp ) * group_rank(tp)", env), 4);
  EXPECT_EQ(ShapeExpr::parse("group_rank(tp) + W").variables(), (std::vector<std::string>{"W", "group_rank(tp)"}));
  EXPECT_EQ(parse_error("group_rank(2)"), "expression \"group_rank(2)\": at column 12: expected a group name, got '2'");
  EXPECT_EQ(parse_error("group_size(tp, 2)"), "expression \"group_size(tp, 2)\": at column 14: expected ')', got ','");
  try {
    eval("group_size(ep) + 1", env);
    FAIL() << "expected an error";
  } catch (const UnknownNameError& error) {
    EXPECT_STREQ(error.what(), "expression \"group_size(ep) + 1\": unknown group 'ep' in group_size(ep)");
  }
}

TEST(ShapeExpr, NamesAMissingVariableAndDivisionByZero) {
  try {
    eval("M * K", {{"M", 2}});
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "expression \"M * K\": unknown name 'K'");
  }
  EXPECT_THROW(eval("4 / (W - W)", {{"W", 2}}), Error);
  EXPECT_THROW(eval("ceil_div(4, 0)"), Error);
}

std::string eval_error(const std::string& text, const ExprEnv& env = {}) {
  try {
    eval(text, env);
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(ShapeExpr, RejectsArithmeticThatOverflowsInsteadOfWrapping) {
  // Wrapped, 4611686018427387904 * 4 + 16 would be 16: a huge buffer taken as a tiny one.
  EXPECT_EQ(eval_error("4611686018427387904 * 4 + 16"),
            "expression \"4611686018427387904 * 4 + 16\": 4611686018427387904 * 4 overflows 64-bit integers");
  EXPECT_EQ(eval_error("M + 9223372036854775807", {{"M", 1}}),
            "expression \"M + 9223372036854775807\": 1 + 9223372036854775807 overflows 64-bit integers");
  EXPECT_EQ(eval_error("-9223372036854775807 - 2"),
            "expression \"-9223372036854775807 - 2\": -9223372036854775807 - 2 overflows 64-bit integers");
  EXPECT_EQ(eval_error("(-9223372036854775807 - 1) / -1"),
            "expression \"(-9223372036854775807 - 1) / -1\": -9223372036854775808 / -1 overflows 64-bit integers");
  EXPECT_EQ(eval("ceil_div(9223372036854775807, 2)"), 4611686018427387904);  // no a + b - 1 on the way
}

TEST(ShapeExpr, RejectsANumberTooLargeForSixtyFourBits) {
  EXPECT_EQ(parse_error("18446744073709551616 + 1"),
            "expression \"18446744073709551616 + 1\": the number 18446744073709551616 does not fit a 64-bit "
            "signed integer");
  EXPECT_EQ(eval("9223372036854775807"), 9223372036854775807);
}

}  // namespace
}  // namespace pkb::problem
