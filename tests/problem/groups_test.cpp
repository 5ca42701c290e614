// Group membership (src/problem/groups.h): block and strided instances, a rank's index and group
// rank, the instances of problem 048's groups at every W, and a size that does not divide W.
#include "src/problem/groups.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "src/problem/spec_loader.h"

namespace pkb::problem {
namespace {

using Instances = std::vector<std::vector<int>>;

TEST(Groups, BlockPutsConsecutiveRanksTogether) {
  const GroupInstance instance = group_instance(8, 5, 2, GroupLayout::block);
  EXPECT_EQ(instance.members, (std::vector<int>{4, 5}));
  EXPECT_EQ(instance.index, 2);
  EXPECT_EQ(instance.rank, 1);
}

TEST(Groups, StridedTakesEveryWOverSizeThRank) {
  const GroupInstance instance = group_instance(8, 5, 4, GroupLayout::strided);
  EXPECT_EQ(instance.members, (std::vector<int>{1, 3, 5, 7}));
  EXPECT_EQ(instance.index, 1);
  EXPECT_EQ(instance.rank, 2);
  // Every rank is in exactly one instance, at its group rank.
  for (int rank = 0; rank < 8; ++rank) {
    const GroupInstance own = group_instance(8, rank, 4, GroupLayout::strided);
    EXPECT_EQ(own.members.at(static_cast<std::size_t>(own.rank)), rank);
  }
}

TEST(Groups, Problem048sInstancesAtEveryWorld) {
  const ProblemSpec spec = load_problem(std::string(PKB_SOURCE_DIR) + "/problems/048_fsdp_and_tp");
  ASSERT_EQ(spec.groups.size(), 2u);  // tp (block), fsdp (strided)
  EXPECT_EQ(group_instances(spec.groups[0], 8, spec.dims), (Instances{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ(group_instances(spec.groups[1], 8, spec.dims), (Instances{{0, 2, 4, 6}, {1, 3, 5, 7}}));
  EXPECT_EQ(group_instances(spec.groups[0], 2, spec.dims), (Instances{{0}, {1}}));
  EXPECT_EQ(group_instances(spec.groups[1], 2, spec.dims), (Instances{{0, 1}}));
  EXPECT_EQ(group_size(spec.groups[1], 4, spec.dims), 2);
}

TEST(Groups, RefusesASizeThatDoesNotDivideTheWorld) {
  try {
    group_instance(6, 0, 4, GroupLayout::block);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "group size 4 does not divide world size 6");
  }
  EXPECT_EQ(group_rank_name("tp"), "group_rank(tp)");
  EXPECT_EQ(group_size_name("tp"), "group_size(tp)");
}

}  // namespace
}  // namespace pkb::problem
