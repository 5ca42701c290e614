// Plans that every rank resolves on its own but that cannot run together: collectives whose count
// or root differs between ranks, sends without their recv, outputs no step writes; and in-place
// collectives, which only some offsets allow.
#include "tests/plan/plan_fixture.h"

namespace pkb::plan {
namespace {

std::string plan_of(const std::string& body, const std::string& buffers = "[]") {
  return "{\"buffers\": " + buffers + ", \"steps\": [" + body + "]}";
}

// Every rank writes y, so only the step under test can make a plan fail.
const std::string kWriteY = R"J({"op": "kernel", "kernel": "scale", "grid": 1, "block": 1, "args": ["y", "f32(1)"]})J";
const std::string kStage = R"J([{"name": "stage", "kind": "symmetric", "dtype": "P", "shape": [16]}])J";

TEST_F(PlanTest, ARingOfSendsAndRecvsInOneGroupResolves) {
  EXPECT_NO_THROW(resolve(plan_of(kWriteY + R"J(,
      {"op": "collective", "kind": "send", "send": "x", "count": 16, "peer": "(rank + 1) % W"},
      {"op": "collective", "kind": "recv", "recv": "stage", "count": 16, "peer": "(rank + W - 1) % W"})J",
                                  kStage)));
}

TEST_F(PlanTest, RejectsASendWithoutItsRecv) {
  EXPECT_EQ(error_of(plan_of(kWriteY + R"J(,
      {"op": "collective", "kind": "send", "send": "x", "count": 16, "peer": "(rank + 1) % W"})J")),
            "plan: steps[1]: rank 0 sends 16 elements to rank 1, which has no matching recv from rank 0 in its group "
            "(steps[1] alone) (consecutive send and recv steps form one group, and each send needs a recv of the same "
            "size on its peer in that group)");
}

TEST_F(PlanTest, RejectsASendAndRecvSplitIntoTwoGroups) {
  // A kernel between them ends the first group: the sends wait for recvs that come later, a hang.
  const std::string message = error_of(plan_of(R"J(
      {"op": "collective", "kind": "send", "send": "x", "count": 16, "peer": "(rank + 1) % W"},)J" + kWriteY + R"J(,
      {"op": "collective", "kind": "recv", "recv": "stage", "count": 16, "peer": "(rank + W - 1) % W"})J",
                                               kStage));
  EXPECT_NE(message.find("plan: steps[0]: rank 0 sends 16 elements to rank 1, which has no matching recv"),
            std::string::npos)
      << message;
}

TEST_F(PlanTest, RejectsARecvCountThatDiffersFromItsSend) {
  EXPECT_EQ(error_of(plan_of(kWriteY + R"J(,
      {"op": "collective", "kind": "send", "send": "x", "count": 16, "peer": "(rank + 1) % W"},
      {"op": "collective", "kind": "recv", "recv": "stage", "count": 8, "peer": "(rank + W - 1) % W"})J",
                             kStage)),
            "plan: steps[1]: rank 0 sends 16 elements to rank 1, but steps[2] on rank 1 receives 8 (consecutive send "
            "and recv steps form one group, and each send needs a recv of the same size on its peer in that group)");
}

TEST_F(PlanTest, RejectsARecvFromARankThatSendsNothing) {
  // Every rank receives from rank 0, but only rank 0's send (to rank 1) exists.
  const std::string message = error_of(plan_of(kWriteY + R"J(,
      {"op": "collective", "kind": "send", "send": "x", "count": 16, "peer": "select(rank == 0, 1, 0)"},
      {"op": "collective", "kind": "recv", "recv": "stage", "count": 16, "peer": "select(rank == 0, 1, 0)"})J",
                                               kStage));
  EXPECT_NE(message.find("sends 16 elements to rank 0, which has no matching recv"), std::string::npos) << message;
}

TEST_F(PlanTest, RejectsACollectiveWhoseCountDependsOnTheRank) {
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "all_reduce", "send": "x", "recv": "y",
                                  "count": "select(rank == 2, 16, 32)"})J")),
            "plan: steps[0]: the all_reduce count is 32 on rank 0 but 16 on rank 2 (every rank must issue a "
            "collective with the same count)");
}

TEST_F(PlanTest, RejectsABroadcastWhoseRootDependsOnTheRank) {
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "broadcast", "send": "x", "recv": "y",
                                  "count": 32, "root": "rank"})J")),
            "plan: steps[0]: the broadcast root is 0 on rank 0 but 1 on rank 1 (every rank must name the same root)");
}

TEST_F(PlanTest, RejectsAnOutputThatNoStepWrites) {
  EXPECT_EQ(error_of(plan_of(R"J({"op": "memset", "buffer": "stage"})J", kStage)),
            "plan: outputs: 'y' is never written on rank 0: no step names it (a kernel argument, memset, copy, gemm "
            "or collective recv of that rank, or peers(y), multicast(y) or a copy to it from any rank)");
}

TEST_F(PlanTest, RejectsAnOutputOnlyOneRankWrites) {
  const std::string message = error_of(plan_of(R"J({"op": "copy", "dst": "y", "src": "x", "count": 32,
                                                     "dst_rank": 0})J"));
  EXPECT_NE(message.find("plan: outputs: 'y' is never written on rank 1"), std::string::npos) << message;
}

TEST_F(PlanTest, AnOutputWrittenThroughPeersOrAPeerCopyCounts) {
  EXPECT_NO_THROW(resolve(plan_of(R"J({"op": "copy", "dst": "y", "src": "x", "count": 32,
                                       "dst_rank": "(rank + 1) % W"})J")));
  target_.kernels.push_back({"fill", {blob(64)}});
  EXPECT_NO_THROW(resolve(plan_of(R"J({"op": "kernel", "kernel": "fill", "grid": 1, "block": 1,
                                       "args": ["peers(y)"]})J")));
}

TEST_F(PlanTest, InPlaceCollectivesOnlyWhereNcclDefinesThem) {
  EXPECT_NO_THROW(resolve(plan_of(R"J({"op": "copy", "dst": "y", "src": "x", "count": 32},
      {"op": "collective", "kind": "all_reduce", "send": "y", "recv": "y", "count": 32})J")));
  // y is [4, 8] = 32 elements; W = 4 chunks of 8.
  EXPECT_NO_THROW(resolve(plan_of(R"J({"op": "collective", "kind": "all_gather", "send": "y", "recv": "y",
                                       "count": 8, "send_offset": "rank * 8"})J")));
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "all_gather", "send": "y", "recv": "y", "count": 8})J")),
            "plan: steps[0]: send elements [0, 8) and recv elements [0, 32) of 'y' overlap (in place, send_offset "
            "must be recv_offset + rank * count) (rank 1 of 4)");
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "all_reduce", "send": "y", "recv": "y", "count": 16,
                                  "recv_offset": 8})J")),
            "plan: steps[0]: send elements [0, 16) and recv elements [8, 24) of 'y' overlap (in place, send_offset "
            "must equal recv_offset) (rank 0 of 4)");
  EXPECT_EQ(error_of(plan_of(R"J({"op": "collective", "kind": "all_to_all", "send": "y", "recv": "y", "count": 8})J")),
            "plan: steps[0]: send elements [0, 32) and recv elements [0, 32) of 'y' overlap (all_to_all cannot run in "
            "place) (rank 0 of 4)");
}

}  // namespace
}  // namespace pkb::plan
