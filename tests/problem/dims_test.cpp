// --dims: bases, overrides, and errors naming the flag and the dim.
#include "src/problem/dims.h"

#include <gtest/gtest.h>

#include "src/common/error.h"

namespace pkb::problem {
namespace {

ProblemSpec demo() {
  ProblemSpec spec;
  spec.key = "007_demo";
  spec.dims = {{"M", 1024}, {"N", 512}};
  spec.test_dims = {{"M", 4}, {"N", 2}};
  return spec;
}

std::string error_of(const std::string& text) {
  try {
    select_dims(demo(), text, DimsBase::test);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "no error";
}

TEST(Dims, SelectsABaseAndAppliesOverrides) {
  EXPECT_EQ(select_dims(demo(), "test", DimsBase::bench).at("M"), 4);
  EXPECT_EQ(select_dims(demo(), "bench", DimsBase::test).at("M"), 1024);
  const auto dims = select_dims(demo(), "bench,N=8", DimsBase::test);
  EXPECT_EQ(dims.at("M"), 1024);
  EXPECT_EQ(dims.at("N"), 8);
  EXPECT_EQ(select_dims(demo(), "M=6", DimsBase::test).at("M"), 6);
  EXPECT_EQ(select_dims(demo(), "M=6", DimsBase::test).at("N"), 2);
}

TEST(Dims, RejectsUnknownDimNamingTheFlag) {
  EXPECT_EQ(error_of("Q=3"), "--dims Q=3: 007_demo has no dim 'Q'");
  EXPECT_EQ(error_of("MM=3"), "--dims MM=3: 007_demo has no dim 'MM', did you mean 'M'?");
}

TEST(Dims, RejectsBadSizesAndOrder) {
  EXPECT_EQ(error_of("M=0"), "--dims M=0: M must be a positive integer, got '0'");
  EXPECT_EQ(error_of("M=4x"), "--dims M=4x: M must be a positive integer, got '4x'");
  EXPECT_EQ(error_of("M=4,bench"), "--dims M=4,bench: 'test' or 'bench' must come first");
  EXPECT_EQ(error_of("huge"), "--dims huge: expected test, bench or NAME=SIZE, got 'huge'");
}

}  // namespace
}  // namespace pkb::problem
