// ProblemIndex over the real problems/ folder: discovery, every way to name a problem, and
// suggestions for typos.
#include "src/problem/problem_index.h"

#include <gtest/gtest.h>

#include "src/common/error.h"

namespace pkb::problem {
namespace {

ProblemIndex index() { return ProblemIndex(std::string(PKB_SOURCE_DIR) + "/problems"); }

TEST(ProblemIndex, FindsTheProblemsInIdOrder) {
  const auto keys = index().keys();
  ASSERT_GE(keys.size(), 8u);
  EXPECT_EQ(keys[0], "001_allreduce");
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
}

TEST(ProblemIndex, ResolvesIdsKeysAndNames) {
  EXPECT_EQ(index().resolve("1"), "001_allreduce");
  EXPECT_EQ(index().resolve("001"), "001_allreduce");
  EXPECT_EQ(index().resolve("001_allreduce"), "001_allreduce");
  EXPECT_EQ(index().resolve("alltoall"), "008_alltoall");
}

TEST(ProblemIndex, SuggestsTheClosestKey) {
  try {
    index().resolve("01_allreduce");
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "unknown problem '01_allreduce', did you mean '001_allreduce'?");
  }
  try {
    index().resolve("flash_attention");
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "unknown problem 'flash_attention' (pkb list shows the problems)");
  }
}

TEST(ProblemIndex, LoadsEveryProblem) {
  for (const auto& spec : index().load_all()) EXPECT_FALSE(spec.summary.empty()) << spec.key;
}

TEST(ProblemIndex, RejectsAMissingFolder) {
  EXPECT_THROW(ProblemIndex("/nonexistent/problems"), InputError);
}

}  // namespace
}  // namespace pkb::problem
