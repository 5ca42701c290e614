// The fair-comparison rule's parts (src/score/coverage.h): which problems a run judged, each run's
// coverage of the union, and problems named as ranges. Its use by --allow-mixed is in merge_test.
#include "src/score/coverage.h"

#include <gtest/gtest.h>

#include "src/score/score.h"
#include "tests/score/fixture.h"

namespace pkb::score {
namespace {

TEST(Coverage, NamesProblemsAsRangesOfTheirNumbers) {
  EXPECT_EQ(problems_text({"001_allreduce", "002_allgather", "003_broadcast", "005_scatter", "p_all"}),
            "001-003, 005, p_all");
  EXPECT_EQ(problems_text({"041_a", "042_b", "043_c"}), "041-043");
  EXPECT_EQ(problems_text({"a", "b", "c", "d"}, 2), "a, b and 2 more");
  EXPECT_EQ(problems_text({}), "");
}

TEST(Coverage, MeasuresEachRunAgainstTheUnion) {
  const CoverageSet set = cover({{"001_a", "002_b", "003_c"}, {"001_a"}, {"002_b", "004_d"}});
  EXPECT_EQ(set.problems, (std::vector<std::string>{"001_a", "002_b", "003_c", "004_d"}));
  EXPECT_EQ(set.runs[0].lacking, (std::vector<std::string>{"004_d"}));
  EXPECT_EQ(set.runs[1].lacking, (std::vector<std::string>{"002_b", "003_c", "004_d"}));
  EXPECT_FALSE(set.runs[2].complete());
  EXPECT_TRUE(cover({{"x"}, {"x"}}).runs[1].complete());
}

TEST(Coverage, JudgedProblemsHaveAVerdict) {
  const Score score = compute_score(merge_dirs({results::load_results_dir(test::fixture_dir("basic"))}, false),
                                    ScoreSettings{});
  EXPECT_EQ(judged_problems(score.problems), (std::vector<std::string>{"p_all", "p_none", "p_some"}));
}

}  // namespace
}  // namespace pkb::score
