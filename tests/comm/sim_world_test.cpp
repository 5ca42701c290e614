// The simulated world's collectives against hand-computed values at W = 1, 2, 3, 4, 8, sub-groups,
// and its failure handling: a rank that throws, mismatched collectives, a rank that returns early.
#include "reference/comm/sim_world.h"

#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "src/common/error.h"

namespace pkb::ref {
namespace {

// Runs fn(comm, rank) on W threads; returns the first error text ("" when none).
std::string run_world(int world_size, SimMode mode, const std::function<void(Comm&, int)>& fn) {
  SimWorld world(world_size, mode);
  std::mutex mutex;
  std::string first_error;
  std::vector<std::thread> threads;
  for (int rank = 0; rank < world_size; ++rank) {
    threads.emplace_back([&, rank] {
      try {
        auto comm = world.comm(rank);
        fn(*comm, rank);
      } catch (const RankAborted&) {
      } catch (const std::exception& error) {
        std::lock_guard<std::mutex> lock(mutex);
        if (first_error.empty()) first_error = error.what();
        world.abort(error.what());
      }
      world.rank_finished(rank);
    });
  }
  for (auto& thread : threads) thread.join();
  return first_error;
}

// Rank r's data: 100 * r + [0, 1, ..., count - 1], so every element names its source and position.
at::Tensor rank_data(int rank, std::int64_t count, at::ScalarType dtype = at::kFloat) {
  return (at::arange(count, at::kDouble) + 100.0 * rank).to(dtype);
}

void expect_equal(const at::Tensor& got, const at::Tensor& expected) {
  EXPECT_TRUE(at::equal(got.to(at::kDouble), expected.to(at::kDouble)))
      << "got " << got << "\nexpected " << expected;
}

class SimWorldOps : public ::testing::TestWithParam<int> {};

TEST_P(SimWorldOps, AllReduceSumMaxMinAvg) {
  const int W = GetParam();
  constexpr std::int64_t kCount = 5;
  const auto base = at::arange(kCount, at::kDouble);
  EXPECT_EQ(run_world(W, SimMode::rank_order, [&](Comm& comm, int rank) {
              at::Tensor sum = rank_data(rank, kCount), max = sum.clone(), min = sum.clone(), avg = sum.clone();
              comm.all_reduce(sum, ReduceOp::sum);
              comm.all_reduce(max, ReduceOp::max);
              comm.all_reduce(min, ReduceOp::min);
              comm.all_reduce(avg, ReduceOp::avg);
              expect_equal(sum, base * W + 100.0 * W * (W - 1) / 2);
              expect_equal(max, base + 100.0 * (W - 1));
              expect_equal(min, base);
              expect_equal(avg, base + 100.0 * (W - 1) / 2);
            }),
            "");
}

TEST_P(SimWorldOps, AllGatherPutsRankSAtSlotS) {
  const int W = GetParam();
  EXPECT_EQ(run_world(W, SimMode::rank_order, [&](Comm& comm, int rank) {
              at::Tensor out = at::full({W, 3}, -1.0);
              comm.all_gather(out, rank_data(rank, 3));
              for (int source = 0; source < W; ++source) expect_equal(out[source], rank_data(source, 3));
            }),
            "");
}

TEST_P(SimWorldOps, ReduceScatterKeepsTheOwnBlockOfTheSum) {
  const int W = GetParam();
  EXPECT_EQ(run_world(W, SimMode::rank_order, [&](Comm& comm, int rank) {
              at::Tensor out = at::empty({2});
              comm.reduce_scatter(out, rank_data(rank, 2 * W), ReduceOp::sum);
              // Block r of rank s's data is 100 s + [2r, 2r + 1]; summed over s.
              expect_equal(out, at::arange(2 * rank, 2 * rank + 2, at::kDouble) * W + 100.0 * W * (W - 1) / 2);
            }),
            "");
}

TEST_P(SimWorldOps, AllToAllWithUnevenSplits) {
  const int W = GetParam();
  // Rank r sends r + d + 1 rows to rank d; each row holds 1000 * r + 10 * d + row.
  EXPECT_EQ(run_world(W, SimMode::rank_order, [&](Comm& comm, int rank) {
              std::vector<std::int64_t> in_splits, out_splits;
              std::vector<at::Tensor> rows;
              for (int peer = 0; peer < W; ++peer) {
                in_splits.push_back(rank + peer + 1);
                out_splits.push_back(peer + rank + 1);
                rows.push_back(at::arange(rank + peer + 1, at::kDouble) + 1000.0 * rank + 10.0 * peer);
              }
              const at::Tensor in = at::cat(rows).unsqueeze(1).repeat({1, 2}).contiguous();
              at::Tensor out = at::empty({std::accumulate(out_splits.begin(), out_splits.end(), std::int64_t{0}), 2}, at::kDouble);
              comm.all_to_all(out, in, out_splits, in_splits);
              std::vector<at::Tensor> expected;
              for (int source = 0; source < W; ++source)
                expected.push_back(at::arange(source + rank + 1, at::kDouble) + 1000.0 * source + 10.0 * rank);
              expect_equal(out, at::cat(expected).unsqueeze(1).repeat({1, 2}));
            }),
            "");
}

TEST_P(SimWorldOps, AllToAllEqualSplits) {
  const int W = GetParam();
  EXPECT_EQ(run_world(W, SimMode::rank_order, [&](Comm& comm, int rank) {
              at::Tensor out = at::empty({W, 2});
              comm.all_to_all(out, rank_data(rank, 2 * W).view({W, 2}), {}, {});
              for (int source = 0; source < W; ++source)
                expect_equal(out[source], rank_data(source, 2 * W).view({W, 2})[rank]);
            }),
            "");
}

TEST_P(SimWorldOps, RootedCollectivesFollowNcclSemantics) {
  const int W = GetParam();
  const int root = W - 1;
  EXPECT_EQ(run_world(W, SimMode::rank_order, [&](Comm& comm, int rank) {
              at::Tensor broadcast = rank_data(rank, 4);
              comm.broadcast(broadcast, root);
              expect_equal(broadcast, rank_data(root, 4));

              at::Tensor reduced = rank_data(rank, 4);
              comm.reduce(reduced, root, ReduceOp::sum);
              // Only the root changes; other ranks keep their input (not gloo's partial sums).
              expect_equal(reduced, rank == root ? at::arange(4, at::kDouble) * W + 100.0 * W * (W - 1) / 2
                                                 : rank_data(rank, 4).to(at::kDouble));

              at::Tensor piece = at::empty({3});
              comm.scatter(piece, rank == root ? rank_data(7, 3 * W) : at::Tensor(), root);
              expect_equal(piece, rank_data(7, 3 * W).narrow(0, 3 * rank, 3));

              at::Tensor gathered = at::full({W, 2}, -1.0);
              comm.gather(gathered, rank_data(rank, 2), root);
              for (int source = 0; source < W; ++source)
                expect_equal(gathered[source], rank == root ? rank_data(source, 2) : at::full({2}, -1.0));
              comm.barrier();
            }),
            "");
}

TEST_P(SimWorldOps, SendRecvAroundARing) {
  const int W = GetParam();
  EXPECT_EQ(run_world(W, SimMode::rank_order, [&](Comm& comm, int rank) {
              comm.send(rank_data(rank, 3), (rank + 1) % W);
              at::Tensor got = at::empty({3});
              comm.recv(got, (rank + W - 1) % W);
              expect_equal(got, rank_data((rank + W - 1) % W, 3));
            }),
            "");
}

TEST_P(SimWorldOps, SendRecvShiftsARingInOneStep) {
  const int W = GetParam();
  EXPECT_EQ(run_world(W, SimMode::rank_order, [&](Comm& comm, int rank) {
              at::Tensor got = at::empty({2});
              comm.send_recv(rank_data(rank, 2), (rank + 1) % W, got, (rank + W - 1) % W);
              expect_equal(got, rank_data((rank + W - 1) % W, 2));
            }),
            "");
}

TEST_P(SimWorldOps, SubGroupsReduceWithinThemselves) {
  const int W = GetParam();
  for (int size : {1, 2}) {
    if (W % size != 0) continue;
    for (bool strided : {false, true}) {
      EXPECT_EQ(run_world(W, SimMode::rank_order, [&](Comm& comm, int rank) {
                  const auto members = group_members(W, rank, size, strided);
                  auto group = comm.split(members);
                  EXPECT_EQ(group->size(), size);
                  at::Tensor value = at::full({1}, static_cast<double>(rank), at::kDouble);
                  group->all_reduce(value, ReduceOp::sum);
                  double expected = 0;
                  for (int member : members) expected += member;
                  EXPECT_EQ(value.item<double>(), expected);
                  // The sub-group's rank 0 broadcasts its world rank.
                  at::Tensor first = at::full({1}, static_cast<double>(rank), at::kDouble);
                  group->broadcast(first, 0);
                  EXPECT_EQ(first.item<double>(), members[0]);
                }),
                "");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(W, SimWorldOps, ::testing::Values(1, 2, 3, 4, 8),
                         [](const auto& param_info) { return "W" + std::to_string(param_info.param); });

TEST(SimWorldGroups, LayoutsMatchTheirDescription) {
  EXPECT_EQ(group_members(8, 5, 2, false), (std::vector<int>{4, 5}));
  EXPECT_EQ(group_members(8, 5, 2, true), (std::vector<int>{1, 5}));
  EXPECT_EQ(group_members(8, 6, 4, true), (std::vector<int>{0, 2, 4, 6}));
  EXPECT_THROW(group_members(6, 0, 4, false), Error);
}

TEST(SimWorldFaults, AbortsEveryRankWhenOneThrows) {
  const std::string error = run_world(4, SimMode::rank_order, [](Comm& comm, int rank) {
    if (rank == 2) throw Error("rank 2 broke");
    at::Tensor value = at::ones({1});
    comm.all_reduce(value, ReduceOp::sum);  // ranks 0, 1, 3 wait here until the abort
  });
  EXPECT_EQ(error, "rank 2 broke");
}

TEST(SimWorldFaults, ReportsMismatchedCollectives) {
  const std::string error = run_world(2, SimMode::rank_order, [](Comm& comm, int rank) {
    at::Tensor value = at::ones({1});
    if (rank == 0) comm.all_reduce(value, ReduceOp::sum);
    else comm.broadcast(value, 0);
  });
  EXPECT_NE(error.find("collective mismatch"), std::string::npos) << error;
}

TEST(SimWorldFaults, ReportsARankThatReturnsWhileOthersWait) {
  const std::string error = run_world(3, SimMode::rank_order, [](Comm& comm, int rank) {
    if (rank == 1) return;
    at::Tensor value = at::ones({1});
    comm.all_reduce(value, ReduceOp::sum);
  });
  EXPECT_NE(error.find("rank 1 returned while rank"), std::string::npos) << error;
}

TEST(SimWorldFaults, RejectsMismatchedSplits) {
  const std::string error = run_world(2, SimMode::rank_order, [](Comm& comm, int rank) {
    at::Tensor out = at::empty({2});
    comm.all_to_all(out, at::zeros({2}), {1, 1}, rank == 0 ? std::vector<std::int64_t>{2, 0} : std::vector<std::int64_t>{1, 1});
  });
  EXPECT_NE(error.find("rows to rank"), std::string::npos) << error;
}

TEST(SimWorldSkip, KeepsOnlyTheRanksOwnData) {
  EXPECT_EQ(run_world(3, SimMode::skip, [](Comm& comm, int rank) {
              at::Tensor sum = rank_data(rank, 2);
              comm.all_reduce(sum, ReduceOp::sum);
              expect_equal(sum, rank_data(rank, 2));
              at::Tensor out = at::full({3, 2}, -1.0);
              comm.all_gather(out, rank_data(rank, 2));
              for (int slot = 0; slot < 3; ++slot)
                expect_equal(out[slot], slot == rank ? rank_data(rank, 2) : at::zeros({2}));
              at::Tensor received = at::full({2}, 5.0);
              comm.recv(received, (rank + 1) % 3);
              expect_equal(received, at::zeros({2}));
            }),
            "");
}

}  // namespace
}  // namespace pkb::ref
