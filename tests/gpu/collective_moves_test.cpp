// Emulated collectives as data movement (harness/device/collective_moves.h): the moves each kind
// becomes, NCCL's in-place forms, and the calls that cannot complete.
#include "harness/device/collective_moves.h"

#include <gtest/gtest.h>

#include "harness/plan/plan.h"

namespace pkb::harness {
namespace {

using plan::CollectiveKind;
using Kind = CollectiveMove::Kind;

constexpr int kWorld = 3;
constexpr std::uint64_t kCount = 4;           // elements
constexpr std::uint64_t kBytes = kCount * 4;  // fp32

DevAddr send_of(int rank) { return 0x10000 * (rank + 1); }
DevAddr recv_of(int rank) { return 0x10000 * (rank + 1) + 0x8000; }

std::vector<IssuedCollective> every_rank(CollectiveKind kind, bool in_place = false,
                                         DType dtype = DType::fp32, int root = 0) {
  std::vector<IssuedCollective> group;
  for (int rank = 0; rank < kWorld; ++rank) {
    CollectiveCall call;
    call.kind = kind;
    call.send = send_of(rank);
    call.recv = in_place ? send_of(rank) : recv_of(rank);
    call.count = kCount;
    call.dtype = dtype;
    call.root = root;
    group.push_back({rank, 0, call});
  }
  return group;
}

std::string refusal(const std::vector<IssuedCollective>& group) {
  try {
    plan_collective_moves(group, kWorld);
  } catch (const plan::PlanError& error) {
    return error.what();
  }
  return "";
}

TEST(CollectiveMoves, AllReduceReducesIntoRankZeroThenCopiesToTheOthers) {
  const auto moves = plan_collective_moves(every_rank(CollectiveKind::all_reduce), kWorld);
  ASSERT_EQ(moves.size(), 3u);
  EXPECT_EQ(moves[0].kind, Kind::reduce);
  EXPECT_EQ(moves[0].dst, recv_of(0));
  EXPECT_EQ(moves[0].srcs, (std::vector<DevAddr>{send_of(0), send_of(1), send_of(2)}));
  EXPECT_EQ(moves[0].count, kCount);
  for (int rank = 1; rank < kWorld; ++rank) {
    EXPECT_EQ(moves[rank].kind, Kind::copy);
    EXPECT_EQ(moves[rank].dst, recv_of(rank));
    EXPECT_EQ(moves[rank].srcs, std::vector<DevAddr>{recv_of(0)});
  }
}

TEST(CollectiveMoves, InPlaceAllReduceCopiesOnlyAfterTheReduction) {
  const auto moves = plan_collective_moves(every_rank(CollectiveKind::all_reduce, true), kWorld);
  ASSERT_EQ(moves.size(), 3u);
  EXPECT_EQ(moves[0].dst, send_of(0));  // reads and writes each element of rank 0's buffer once
  EXPECT_EQ(moves[1].dst, send_of(1));
  EXPECT_EQ(moves[1].srcs[0], send_of(0));
}

TEST(CollectiveMoves, ReduceScatterReducesChunkROfEverySendIntoRankR) {
  const auto moves = plan_collective_moves(every_rank(CollectiveKind::reduce_scatter), kWorld);
  ASSERT_EQ(moves.size(), 3u);
  for (int rank = 0; rank < kWorld; ++rank) {
    EXPECT_EQ(moves[rank].kind, Kind::reduce);
    EXPECT_EQ(moves[rank].dst, recv_of(rank));
    EXPECT_EQ(moves[rank].srcs, (std::vector<DevAddr>{send_of(0) + rank * kBytes,
                                                      send_of(1) + rank * kBytes,
                                                      send_of(2) + rank * kBytes}));
  }
}

TEST(CollectiveMoves, ReduceWritesOnlyTheRoot) {
  auto group = every_rank(CollectiveKind::reduce, false, DType::bf16, 2);
  for (auto& issued : group) issued.call.reduce = plan::ReduceOp::max;
  const auto moves = plan_collective_moves(group, kWorld);
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].dst, recv_of(2));
  EXPECT_EQ(moves[0].op, plan::ReduceOp::max);
  EXPECT_EQ(moves[0].dtype, DType::bf16);
}

TEST(CollectiveMoves, AllGatherPlacesSendQAtChunkQAndSkipsInPlaceSelfCopies) {
  const auto moves = plan_collective_moves(every_rank(CollectiveKind::all_gather), kWorld);
  ASSERT_EQ(moves.size(), 9u);
  EXPECT_EQ(moves[5].dst, recv_of(1) + 2 * kBytes);  // rank 1, chunk 2
  EXPECT_EQ(moves[5].srcs[0], send_of(2));
  // In place (NCCL's form): rank q's send is chunk q of its recv, which needs no copy.
  auto group = every_rank(CollectiveKind::all_gather);
  for (auto& issued : group) issued.call.send = issued.call.recv + issued.rank * kBytes;
  EXPECT_EQ(plan_collective_moves(group, kWorld).size(), 6u);
}

TEST(CollectiveMoves, BroadcastCopiesTheRootsSend) {
  const auto moves =
      plan_collective_moves(every_rank(CollectiveKind::broadcast, true, DType::fp32, 1), kWorld);
  ASSERT_EQ(moves.size(), 2u);  // the root's own buffer already holds it
  for (const auto& move : moves) EXPECT_EQ(move.srcs[0], send_of(1));
}

TEST(CollectiveMoves, AllToAllTransposesChunksAndRefusesInPlace) {
  const auto moves = plan_collective_moves(every_rank(CollectiveKind::all_to_all), kWorld);
  ASSERT_EQ(moves.size(), 9u);
  EXPECT_EQ(moves[1].dst, recv_of(0) + 1 * kBytes);  // rank 0's chunk from rank 1 ...
  EXPECT_EQ(moves[1].srcs[0], send_of(1) + 0 * kBytes);  // ... is rank 1's chunk for rank 0
  EXPECT_NE(refusal(every_rank(CollectiveKind::all_to_all, true)).find("in place"), std::string::npos);
}

TEST(CollectiveMoves, SendsMeetTheirRecvsInIssueOrder) {
  auto call = [](CollectiveKind kind, DevAddr addr, int peer, std::uint64_t count) {
    CollectiveCall c;
    c.kind = kind;
    (kind == CollectiveKind::send ? c.send : c.recv) = addr;
    c.peer = peer;
    c.count = count;
    return c;
  };
  // A ring shift: each rank sends to the next and receives from the previous, recvs issued first.
  std::vector<IssuedCollective> group;
  for (int rank = 0; rank < kWorld; ++rank)
    group.push_back({rank, 1, call(CollectiveKind::recv, recv_of(rank), (rank + kWorld - 1) % kWorld, kCount)});
  for (int rank = 0; rank < kWorld; ++rank)
    group.push_back({rank, 0, call(CollectiveKind::send, send_of(rank), (rank + 1) % kWorld, kCount)});
  const auto moves = plan_collective_moves(group, kWorld);
  ASSERT_EQ(moves.size(), 3u);
  for (const auto& move : moves) {
    EXPECT_EQ(move.kind, Kind::copy);
    const int from = static_cast<int>(move.srcs[0] / 0x10000) - 1;
    EXPECT_EQ(move.dst, recv_of((from + 1) % kWorld));
  }
  group.pop_back();  // rank 2's send
  EXPECT_NE(refusal(group).find("receives from rank 2 more often than it sends"), std::string::npos)
      << refusal(group);
  group.push_back({2, 0, call(CollectiveKind::send, send_of(2), 0, kCount + 1)});
  EXPECT_NE(refusal(group).find("sends 5 elements to rank 0, which receives 4"), std::string::npos)
      << refusal(group);
}

TEST(CollectiveMoves, RefusesWhatCannotComplete) {
  auto group = every_rank(CollectiveKind::all_reduce);
  group.pop_back();
  EXPECT_NE(refusal(group).find("rank 2 issued 0 calls"), std::string::npos) << refusal(group);
  group = every_rank(CollectiveKind::all_reduce);
  group[1].call.count = 8;
  EXPECT_NE(refusal(group).find("different kinds, counts"), std::string::npos);
  EXPECT_NE(refusal(every_rank(CollectiveKind::all_reduce, false, DType::fp8e4m3)).find("cannot reduce fp8e4m3"),
            std::string::npos);
  // Moving fp8 is fine; only adding it is not.
  EXPECT_EQ(plan_collective_moves(every_rank(CollectiveKind::all_gather, false, DType::fp8e4m3), kWorld).size(), 9u);
}

// Grouped calls (CollectiveCall::members): W = 4 split into instances {0, 1} and {2, 3} (block) or
// {0, 2} and {1, 3} (strided); ranks, roots, peers and chunks are group ranks.
std::vector<IssuedCollective> grouped(CollectiveKind kind, bool strided, int root = 0) {
  std::vector<IssuedCollective> group;
  for (int rank = 0; rank < 4; ++rank) {
    CollectiveCall call;
    call.kind = kind;
    call.send = send_of(rank);
    call.recv = recv_of(rank);
    call.count = kCount;
    call.root = root;
    call.group = strided ? 1 : 0;
    call.members = strided ? std::vector<int>{rank % 2, rank % 2 + 2}
                           : std::vector<int>{rank / 2 * 2, rank / 2 * 2 + 1};
    group.push_back({rank, 0, call});
  }
  return group;
}

TEST(CollectiveMovesGrouped, AllReduceReducesEachInstanceIntoItsFirstMember) {
  const auto moves = plan_collective_moves(grouped(CollectiveKind::all_reduce, true), 4);
  ASSERT_EQ(moves.size(), 4u);  // per instance: one reduction, one copy
  EXPECT_EQ(moves[0].dst, recv_of(0));
  EXPECT_EQ(moves[0].srcs, (std::vector<DevAddr>{send_of(0), send_of(2)}));
  EXPECT_EQ(moves[1].dst, recv_of(2));
  EXPECT_EQ(moves[1].srcs, std::vector<DevAddr>{recv_of(0)});
  EXPECT_EQ(moves[2].srcs, (std::vector<DevAddr>{send_of(1), send_of(3)}));
  EXPECT_EQ(moves[3].dst, recv_of(3));
}

TEST(CollectiveMovesGrouped, GatherAndScatterChunksAreGroupRanks) {
  // Strided {1, 3}: world rank 3 is group rank 1, so its data is chunk 1 of rank 1's gather.
  const auto gather = plan_collective_moves(grouped(CollectiveKind::all_gather, true), 4);
  ASSERT_EQ(gather.size(), 8u);
  EXPECT_EQ(gather[5].dst, recv_of(1) + 1 * kBytes);
  EXPECT_EQ(gather[5].srcs[0], send_of(3));
  // Block {2, 3}: rank 3 (group rank 1) receives the sum of chunk 1 of ranks 2 and 3.
  const auto scatter = plan_collective_moves(grouped(CollectiveKind::reduce_scatter, false), 4);
  ASSERT_EQ(scatter.size(), 4u);
  EXPECT_EQ(scatter[3].dst, recv_of(3));
  EXPECT_EQ(scatter[3].srcs, (std::vector<DevAddr>{send_of(2) + kBytes, send_of(3) + kBytes}));
}

TEST(CollectiveMovesGrouped, RootsAndPeersAreGroupRanks) {
  // Broadcast from group rank 1: world ranks 2 ({0, 2}) and 3 ({1, 3}).
  const auto moves = plan_collective_moves(grouped(CollectiveKind::broadcast, true, 1), 4);
  ASSERT_EQ(moves.size(), 4u);
  EXPECT_EQ(moves[0].srcs[0], send_of(2));
  EXPECT_EQ(moves[2].srcs[0], send_of(3));
  // Each block pair swaps: peer 1 - group rank is the other member.
  std::vector<IssuedCollective> swap;
  for (const auto& issued : grouped(CollectiveKind::send, false)) {
    IssuedCollective send = issued, recv = issued;
    send.call.peer = recv.call.peer = 1 - issued.rank % 2;
    recv.call.kind = CollectiveKind::recv;
    swap.push_back(send);
    swap.push_back(recv);
  }
  const auto copies = plan_collective_moves(swap, 4);
  ASSERT_EQ(copies.size(), 4u);
  for (const auto& move : copies) {
    const int from = static_cast<int>(move.srcs[0] / 0x10000) - 1;
    EXPECT_EQ(move.dst, recv_of(from ^ 1));
  }
  // A world recv does not meet a grouped send, even between the same two ranks.
  swap[1].call.group = -1;
  swap[1].call.members.clear();
  EXPECT_NE(refusal(swap).find("rank 0 receives from rank 1 more often than it sends"), std::string::npos)
      << refusal(swap);
}

TEST(CollectiveMovesGrouped, RefusesAnInstanceNotEveryMemberIssued) {
  auto group = grouped(CollectiveKind::all_reduce, false);
  group.pop_back();  // rank 3
  EXPECT_NE(refusal(group).find("rank 3 issued 0 calls"), std::string::npos) << refusal(group);
  group = grouped(CollectiveKind::all_reduce, false);
  group[1].call.members = {0, 2};  // rank 1 claims an instance it is not in
  EXPECT_NE(refusal(group).find("rank 1 issued a collective over a group it is not in"), std::string::npos)
      << refusal(group);
}

TEST(CollectiveMovesGrouped, SplitByCommunicatorKeepsInstancesApart) {
  auto group = grouped(CollectiveKind::all_reduce, true);
  const auto parts = split_by_communicator(group);
  ASSERT_EQ(parts.size(), 2u);
  ASSERT_EQ(parts[0].size(), 2u);
  EXPECT_EQ(parts[0][0].rank, 0);
  EXPECT_EQ(parts[0][1].rank, 2);
  EXPECT_EQ(parts[1][1].rank, 3);
  // A world step is one part; sends and recvs stay together, whatever their groups.
  EXPECT_EQ(split_by_communicator(every_rank(CollectiveKind::all_reduce)).size(), 1u);
  for (auto& issued : group) issued.call.kind = CollectiveKind::send;
  EXPECT_EQ(split_by_communicator(group).size(), 1u);
}

}  // namespace
}  // namespace pkb::harness
