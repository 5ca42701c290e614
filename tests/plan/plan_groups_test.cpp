// Collectives over the problem's groups ("group": NAME, docs/ABI.md): counts, roots and peers in
// group ranks, group_rank(G) and group_size(G) in expressions, and each refusal: an unknown group,
// a root or peer outside the group, counts or roots that differ inside one instance, sends that
// meet no recv on the same group.
#include "tests/plan/plan_fixture.h"

namespace pkb::plan {
namespace {

std::string plan_of(const std::string& body, const std::string& buffers = "[]") {
  return "{\"buffers\": " + buffers + ", \"steps\": [" + body + "]}";
}

const std::string kWriteY = R"J({"op": "kernel", "kernel": "scale", "grid": 1, "block": 1, "args": ["y", "f32(1)"]})J";
const std::string kWide = R"J([{"name": "wide", "kind": "symmetric", "dtype": "P", "shape": [128]}])J";

// Problem 001 with two groups: at W = 4, tp is {0,1} {2,3} and fsdp is {0,2} {1,3}; at W = 8,
// tp is {0,1} .. {6,7} and fsdp {0,2,4,6} {1,3,5,7}.
class PlanGroupsTest : public PlanTest {
 protected:
  void SetUp() override {
    PlanTest::SetUp();
    spec_.groups = {{"tp", problem::ShapeExpr::parse("2"), problem::GroupLayout::block},
                    {"fsdp", problem::ShapeExpr::parse("W / 2"), problem::GroupLayout::strided}};
  }
};

TEST_F(PlanGroupsTest, AGroupedCollectiveSpansItsInstanceInGroupRanks) {
  target_.world = 8;
  const auto plans = resolve(plan_of(R"J({"op": "collective", "kind": "all_gather", "group": "fsdp",
                                          "send": "x", "recv": "wide", "count": 32},
                                         {"op": "collective", "kind": "broadcast", "group": "tp",
                                          "send": "x", "recv": "y", "count": 32, "root": 1})J",
                                     kWide));
  const CollectiveStep& gather = plans[5].steps[0].collective;
  EXPECT_EQ(gather.group, 1);
  EXPECT_EQ(gather.members, (std::vector<int>{1, 3, 5, 7}));
  const CollectiveStep& broadcast = plans[5].steps[1].collective;
  EXPECT_EQ(broadcast.group, 0);
  EXPECT_EQ(broadcast.members, (std::vector<int>{4, 5}));
  EXPECT_EQ(broadcast.root, 1);  // a group rank: world rank 5 for this instance
  EXPECT_EQ(plans[5].group_names, (std::vector<std::string>{"tp", "fsdp"}));
  // Without a group a collective spans the world, as before.
  const auto world = resolve(plan_of(R"J({"op": "collective", "kind": "all_reduce", "send": "x",
                                          "recv": "y", "count": 32})J"));
  EXPECT_EQ(world[3].steps[0].collective.group, -1);
  EXPECT_TRUE(world[3].steps[0].collective.members.empty());
}

TEST_F(PlanGroupsTest, ExpressionsSeeGroupRankAndGroupSize) {
  target_.world = 8;
  const auto plans = resolve(plan_of(R"J({"op": "collective", "kind": "all_gather", "group": "fsdp",
                                          "send": "x", "recv": "wide", "count": "128 / group_size(fsdp)",
                                          "recv_offset": "0 * group_rank(fsdp)"},
                                         {"op": "memset", "buffer": "y"})J",
                                     kWide));
  EXPECT_EQ(plans[7].steps[0].collective.count, 32u);
  const auto ranks = resolve(plan_of(kWriteY + R"J(,
      {"op": "kernel", "kernel": "scale", "grid": "1 + group_rank(fsdp) + 10 * group_size(tp)",
       "block": 1, "args": ["y", "f32(1)"]})J"));
  EXPECT_EQ(ranks[5].steps[1].kernel.grid.x, 1u + 2u + 20u);  // rank 5 is fsdp rank 2 of {1,3,5,7}
}

TEST_F(PlanGroupsTest, TheRecvOfAGroupedAllGatherHoldsGroupSizeChunks) {
  // tp has 2 ranks: its gather of 32 elements fills 64 of wide, and 64 do not fit y (32).
  EXPECT_NO_THROW(resolve(plan_of(R"J({"op": "collective", "kind": "all_gather", "group": "tp",
                                       "send": "x", "recv": "wide", "count": 32}, )J" + kWriteY,
                                  kWide)));
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "all_gather", "group": "tp",
                                  "send": "x", "recv": "y", "count": 32})J")),
            "plan: steps[0].recv: elements [0, 64) are outside 'y', which holds 32 (rank 0 of 4)");
}

TEST_F(PlanGroupsTest, RejectsAnUnknownGroup) {
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "all_reduce", "group": "tpp",
                                  "send": "x", "recv": "y", "count": 32})J")),
            "plan: steps[0].group: unknown group 'tpp', did you mean 'tp'? (groups: tp, fsdp) (rank 0 of 4)");
}

TEST_F(PlanTest, RejectsAGroupInAProblemWithoutGroups) {
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "all_reduce", "group": "tp",
                                  "send": "x", "recv": "y", "count": 32})J")),
            "plan: steps[0].group: unknown group 'tp' (the problem has no groups) (rank 0 of 4)");
}

TEST_F(PlanGroupsTest, RejectsAGroupThatIsNotAName) {
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "all_reduce", "group": 2,
                                  "send": "x", "recv": "y", "count": 32})J")),
            "plan: steps[0].group: expected a non-empty string, got 2");
}

TEST_F(PlanGroupsTest, RejectsAGroupSizeThatDoesNotDivideTheWorld) {
  spec_.groups.push_back({"odd", problem::ShapeExpr::parse("3"), problem::GroupLayout::block});
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "all_reduce", "group": "odd",
                                  "send": "x", "recv": "y", "count": 32})J")),
            "plan: steps[0].group: group 'odd': group size 3 does not divide world size 4 (rank 0 of 4)");
}

TEST_F(PlanGroupsTest, RejectsARootOutsideTheGroup) {
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "broadcast", "group": "tp",
                                  "send": "x", "recv": "y", "count": 32, "root": 2})J")),
            "plan: steps[0].root: expected a rank of group 'tp' in 0..1, got 2 (rank 0 of 4)");
}

TEST_F(PlanGroupsTest, RejectsAPeerOutsideTheGroupOrItself) {
  EXPECT_EQ(error_of(plan_of(kWriteY + R"J(,
      {"op": "collective", "kind": "send", "group": "tp", "send": "x", "count": 32, "peer": "rank + 2"})J")),
            "plan: steps[1].peer: expected a rank of group 'tp' in 0..1, got 2 (rank 0 of 4)");
  EXPECT_EQ(error_of(plan_of(kWriteY + R"J(,
      {"op": "collective", "kind": "send", "group": "tp", "send": "x", "count": 32,
       "peer": "group_rank(tp)"})J")),
            "plan: steps[1].peer: a rank cannot send to or receive from itself (rank 0 of 4)");
}

TEST_F(PlanGroupsTest, RejectsACountThatDiffersInsideOneInstance) {
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "all_reduce", "group": "tp",
                                  "send": "x", "recv": "y", "count": "select(rank == 3, 16, 32)"})J")),
            "plan: steps[0]: the all_reduce count is 32 on rank 2 but 16 on rank 3 (every rank of an instance "
            "of group 'tp' must issue a collective with the same count)");
}

TEST_F(PlanGroupsTest, AcceptsCountsThatDifferBetweenInstances) {
  EXPECT_NO_THROW(resolve(plan_of(R"J({"op": "collective", "kind": "all_reduce", "group": "tp",
                                       "send": "x", "recv": "y", "count": "select(rank < 2, 16, 32)"},
                                      )J" + kWriteY)));
}

TEST_F(PlanGroupsTest, RejectsARootThatDiffersInsideOneInstance) {
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "reduce", "group": "fsdp",
                                  "send": "x", "recv": "y", "count": 32, "root": "select(rank == 3, 1, 0)"},
                                 )J" + kWriteY)),
            "plan: steps[0]: the reduce root is 0 on rank 1 but 1 on rank 3 (every rank of an instance of group "
            "'fsdp' must name the same root)");
}

TEST_F(PlanGroupsTest, PairsSendsAndRecvsPerGroup) {
  // Inside each tp pair the two ranks swap x: peer 1 - group_rank(tp) is the other member.
  const auto plans = resolve(plan_of(kWriteY + R"J(,
      {"op": "collective", "kind": "send", "group": "tp", "send": "x", "count": 32, "peer": "1 - group_rank(tp)"},
      {"op": "collective", "kind": "recv", "group": "tp", "recv": "wide", "count": 32, "peer": "1 - group_rank(tp)"})J",
                                     kWide));
  EXPECT_EQ(plans[3].steps[1].collective.peer, 0);  // group rank 0 of {2, 3}: world rank 2
  // The same exchange with world ranks on the recv side meets nothing: another communicator.
  EXPECT_EQ(error_of(plan_of(kWriteY + R"J(,
      {"op": "collective", "kind": "send", "group": "tp", "send": "x", "count": 32, "peer": "1 - group_rank(tp)"},
      {"op": "collective", "kind": "recv", "recv": "wide", "count": 32, "peer": "rank + 1 - 2 * group_rank(tp)"})J",
                             kWide)),
            "plan: steps[1]: rank 0 sends 32 elements to rank 1 over group 'tp', which has no matching recv from "
            "rank 0 over group 'tp' in its group (steps[1] to steps[2]) (consecutive send and recv steps form one "
            "group, and each send needs a recv of the same size on its peer in that group)");
}

TEST_F(PlanGroupsTest, RejectsARecvOverAGroupThatNoSendMeets) {
  EXPECT_EQ(error_of(plan_of(kWriteY + R"J(,
      {"op": "collective", "kind": "recv", "group": "fsdp", "recv": "wide", "count": 32,
       "peer": "1 - group_rank(fsdp)"})J",
                             kWide)),
            "plan: steps[1]: rank 2 receives 32 elements from rank 0 over group 'fsdp', which sends nothing more to "
            "rank 2 over group 'fsdp' in its group (steps[1] alone) (consecutive send and recv steps form one group, "
            "and each send needs a recv of the same size on its peer in that group)");
}

TEST_F(PlanGroupsTest, InPlaceOffsetsAreInGroupRanks) {
  // all_gather in place over tp: this rank's chunk is group_rank(tp) * count, not rank * count.
  EXPECT_NO_THROW(resolve(plan_of(R"J({"op": "collective", "kind": "all_gather", "group": "tp", "send": "wide",
                                       "recv": "wide", "count": 32, "send_offset": "group_rank(tp) * 32"},
                                      )J" + kWriteY,
                                  kWide)));
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "all_gather", "group": "tp", "send": "wide",
                                  "recv": "wide", "count": 32, "send_offset": "rank * 16"})J",
                             kWide)),
            "plan: steps[0]: send elements [16, 48) and recv elements [0, 64) of 'wide' overlap (in place, "
            "send_offset must be recv_offset + group_rank(tp) * count) (rank 1 of 4)");
}

TEST_F(PlanGroupsTest, NamesTheGroupsWhereAnExpressionMeetsAnUnknownGroup) {
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "all_reduce", "group": "tp", "send": "x",
                                  "recv": "y", "count": "group_size(tpp) * 16"})J")),
            "plan: steps[0].count: expression \"group_size(tpp) * 16\": unknown group 'tpp' in group_size(tpp); "
            "the names an expression may use are the problem's dims, its integer scalars, W, rank and num_sms, "
            "and group_rank(G) and group_size(G) for the problem's groups G (tp, fsdp) (rank 0 of 4)");
}

}  // namespace
}  // namespace pkb::plan
