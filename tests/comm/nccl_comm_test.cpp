// NcclComm against hand-computed results: W = min(GPUs, 4) ranks in one process, one thread each.
// Label gpu. Skips, saying why, without a CUDA device or without a CUDA-enabled libtorch.
#include <gtest/gtest.h>

#ifdef PKB_HAVE_NCCL

#include <ATen/ATen.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "reference/comm/nccl_comm.h"
#include "src/common/error.h"

namespace pkb::ref {
namespace {

constexpr int kMaxWorld = 4;  // enough ranks for uneven splits and two groups of two

class NcclCommWorld : public ::testing::Test {
 protected:
  void SetUp() override {
    int devices = 0;
    const cudaError_t status = cudaGetDeviceCount(&devices);
    if (status != cudaSuccess)
      GTEST_SKIP() << "no CUDA device: cudaGetDeviceCount: " << cudaGetErrorString(status);
    if (devices == 0) GTEST_SKIP() << "no CUDA device: cudaGetDeviceCount found none";
    if (!at::hasCUDA())
      GTEST_SKIP() << "this libtorch has no CUDA, so no tensor can live on cuda:r (build against "
                      "a CUDA-enabled libtorch)";
    world_ = std::min(devices, kMaxWorld);
    std::vector<int> ids(world_);
    std::iota(ids.begin(), ids.end(), 0);
    comms_ = NcclComm::init_all(ids);
  }

  // Runs body on one thread per rank, as NCCL needs, and returns each rank's result on the CPU.
  std::vector<at::Tensor> run(const std::function<at::Tensor(Comm&, int)>& body) {
    std::vector<at::Tensor> results(world_);
    std::vector<std::exception_ptr> errors(world_);
    std::vector<std::thread> threads;
    for (int rank = 0; rank < world_; ++rank)
      threads.emplace_back([&, rank] {
        try {
          results[rank] = body(*comms_[rank], rank).cpu();
        } catch (...) {
          errors[rank] = std::current_exception();
        }
      });
    for (auto& thread : threads) thread.join();
    for (const auto& error : errors)
      if (error) std::rethrow_exception(error);
    return results;
  }

  static at::TensorOptions on(int rank) {
    return at::TensorOptions()
        .dtype(at::kFloat)
        .device(at::kCUDA, static_cast<c10::DeviceIndex>(rank));
  }

  static void expect_all(const std::vector<at::Tensor>& results,
                         const std::function<at::Tensor(int)>& expected, const std::string& what) {
    for (std::size_t rank = 0; rank < results.size(); ++rank) {
      const at::Tensor want = expected(static_cast<int>(rank)).to(results[rank].scalar_type());
      EXPECT_TRUE(at::allclose(results[rank], want)) << what << ", rank " << rank << ":\ngot\n"
                                                     << results[rank] << "\nexpected\n"
                                                     << want;
    }
  }

  int world_ = 0;
  std::vector<std::unique_ptr<NcclComm>> comms_;
};

TEST_F(NcclCommWorld, AllReducesSumMaxMinAndAvg) {
  const double w = world_;
  // arange + 10 r: each op has a different answer, and a rank that skipped it keeps its own.
  const at::Tensor base = at::arange(6, at::kFloat);
  const std::vector<std::pair<ReduceOp, at::Tensor>> cases = {
      {ReduceOp::sum, base * w + 10 * w * (w - 1) / 2},
      {ReduceOp::max, base + 10 * (w - 1)},
      {ReduceOp::min, base},
      {ReduceOp::avg, base + 5 * (w - 1)}};
  for (const auto& [op, expected] : cases) {
    auto results = run([&, op = op](Comm& comm, int rank) {
      const at::Tensor tensor = (base + 10.0 * rank).to(on(rank));
      comm.all_reduce(tensor, op);
      return tensor;
    });
    expect_all(
        results, [want = expected](int) { return want; }, reduce_op_name(op));
  }
  // bf16 sums go through fp32; these values are exact in bf16, so the answer is too.
  auto results = run([&](Comm& comm, int rank) {
    const at::Tensor tensor = at::full({4}, 1.0 + rank, on(rank).dtype(at::kBFloat16));
    comm.all_reduce(tensor, ReduceOp::sum);
    return tensor;
  });
  expect_all(
      results, [&](int) { return at::full({4}, w * (w + 1) / 2); }, "bf16 sum");
}

TEST_F(NcclCommWorld, AllGathersInRankOrder) {
  auto results = run([&](Comm& comm, int rank) {
    const at::Tensor out = at::zeros({world_ * 3}, on(rank));
    comm.all_gather(out, at::full({3}, rank, on(rank)));
    return out;
  });
  const at::Tensor expected = at::arange(world_, at::kFloat).repeat_interleave(3);
  expect_all(
      results, [&](int) { return expected; }, "all_gather");
}

TEST_F(NcclCommWorld, ReduceScattersChunkRToRankR) {
  const double w = world_;
  auto results = run([&](Comm& comm, int rank) {
    const at::Tensor out = at::zeros({2}, on(rank));
    comm.reduce_scatter(out, at::arange(world_ * 2, on(rank)) + rank, ReduceOp::sum);
    return out;
  });
  expect_all(
      results, [&](int rank) { return at::arange(2 * rank, 2 * rank + 2) * w + w * (w - 1) / 2; },
      "reduce_scatter");
}

TEST_F(NcclCommWorld, AllToAllMovesUnevenAndEqualSplits) {
  // s sends s + d + 1 rows of value 100 s + d to d, so every block has its own size and value.
  auto results = run([&](Comm& comm, int rank) {
    std::vector<at::Tensor> blocks;
    std::vector<std::int64_t> in_splits, out_splits;
    for (int peer = 0; peer < world_; ++peer) {
      in_splits.push_back(rank + peer + 1);
      out_splits.push_back(peer + rank + 1);
      blocks.push_back(at::full({rank + peer + 1, 2}, 100 * rank + peer, on(rank)));
    }
    const at::Tensor out =
        at::zeros({std::accumulate(out_splits.begin(), out_splits.end(), 0L), 2}, on(rank));
    comm.all_to_all(out, at::cat(blocks), out_splits, in_splits);
    return out;
  });
  expect_all(
      results,
      [&](int rank) {
        std::vector<at::Tensor> blocks;
        for (int source = 0; source < world_; ++source)
          blocks.push_back(at::full({source + rank + 1, 2}, 100 * source + rank));
        return at::cat(blocks);
      },
      "uneven all_to_all");
  results = run([&](Comm& comm, int rank) {
    const at::Tensor out = at::zeros({world_}, on(rank));
    comm.all_to_all(out, at::arange(world_, on(rank)) + 100 * rank, {}, {});
    return out;
  });
  expect_all(
      results, [&](int rank) { return at::arange(world_, at::kFloat) * 100 + rank; },
      "equal all_to_all");
}

TEST_F(NcclCommWorld, BroadcastsTheRootsTensor) {
  auto results = run([&](Comm& comm, int rank) {
    const at::Tensor tensor = at::full({5}, rank + 1, on(rank));
    comm.broadcast(tensor, world_ - 1);
    return tensor;
  });
  expect_all(
      results, [&](int) { return at::full({5}, world_); }, "broadcast");
}

TEST_F(NcclCommWorld, ReduceChangesOnlyTheRoot) {
  auto results = run([&](Comm& comm, int rank) {
    const at::Tensor tensor = at::full({4}, rank + 1, on(rank));
    comm.reduce(tensor, 0, ReduceOp::sum);
    return tensor;
  });
  expect_all(
      results,
      [&](int rank) { return at::full({4}, rank == 0 ? world_ * (world_ + 1) / 2 : rank + 1); },
      "reduce");
}

TEST_F(NcclCommWorld, ScattersFromALastRankRoot) {
  const int root = world_ - 1;
  auto results = run([&](Comm& comm, int rank) {
    const at::Tensor out = at::zeros({2}, on(rank));
    // Only the root's `in` is read: the others pass an empty tensor.
    comm.scatter(out, rank == root ? at::arange(world_ * 2, on(rank)) : at::empty({0}, on(rank)),
                 root);
    return out;
  });
  expect_all(
      results, [&](int rank) { return at::arange(2 * rank, 2 * rank + 2); }, "scatter");
}

TEST_F(NcclCommWorld, GathersIntoTheRootOnly) {
  auto results = run([&](Comm& comm, int rank) {
    const at::Tensor out = at::full({world_ * 2}, -1, on(rank));
    comm.gather(out, at::full({2}, rank, on(rank)), 0);
    return out;
  });
  expect_all(
      results,
      [&](int rank) {
        return rank == 0 ? at::arange(world_, at::kFloat).repeat_interleave(2)
                         : at::full({world_ * 2}, -1);
      },
      "gather");
}

TEST_F(NcclCommWorld, SendsAndReceivesAroundARing) {
  if (world_ < 2) GTEST_SKIP() << "a ring needs 2 GPUs, found 1";
  auto results = run([&](Comm& comm, int rank) {
    const at::Tensor mine = at::full({3}, rank, on(rank));
    const at::Tensor received = at::zeros({3}, on(rank));
    const int next = (rank + 1) % world_, previous = (rank + world_ - 1) % world_;
    // send blocks until the peer receives: even ranks send first, odd ranks receive first.
    if (rank % 2 == 0) comm.send(mine, next);
    comm.recv(received, previous);
    if (rank % 2 == 1) comm.send(mine, next);
    return received;
  });
  expect_all(
      results, [&](int rank) { return at::full({3}, (rank + world_ - 1) % world_); }, "ring");
}

TEST_F(NcclCommWorld, SplitsIntoTwoGroupsInParentOrder) {
  const int half = (world_ + 1) / 2;  // W = 1 gives one group of one
  std::vector<int> sub_ranks(world_), sub_sizes(world_);
  auto results = run([&](Comm& comm, int rank) {
    std::vector<int> members(rank < half ? half : world_ - half);
    std::iota(members.begin(), members.end(), rank < half ? 0 : half);
    const std::unique_ptr<Comm> group = comm.split(members);
    sub_ranks[rank] = group->rank();
    sub_sizes[rank] = group->size();
    const at::Tensor tensor = at::full({2}, rank + 1, on(rank));
    group->all_reduce(tensor, ReduceOp::sum);
    group->barrier();
    return tensor;
  });
  for (int rank = 0; rank < world_; ++rank) {
    EXPECT_EQ(sub_ranks[rank], rank < half ? rank : rank - half) << "rank " << rank;
    EXPECT_EQ(sub_sizes[rank], rank < half ? half : world_ - half) << "rank " << rank;
  }
  // Sum of r + 1 over the group: 1..half, or half+1..W.
  const auto group_sum = [&](int rank) {
    return rank < half ? half * (half + 1) / 2 : world_ * (world_ + 1) / 2 - half * (half + 1) / 2;
  };
  expect_all(
      results, [&](int rank) { return at::full({2}, group_sum(rank)); }, "split");
}

// Arguments are checked before anything is enqueued, so rank 0 alone can be called here.
std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& error) {
    return error.what();
  }
  return "no error";
}

TEST_F(NcclCommWorld, RejectsBadArgumentsNamingThem) {
  NcclComm& comm = *comms_[0];
  const std::string w = std::to_string(world_);
  EXPECT_EQ(error_of([&] { comm.all_gather(at::zeros({10}, on(0)), at::zeros({3}, on(0))); }),
            "nccl all_gather: out has 10 elements, expected " + w + " * 3");
  EXPECT_EQ(error_of([&] { comm.all_reduce(at::zeros({3}), ReduceOp::sum); }),
            "nccl all_reduce: tensor is a cpu tensor, expected a cuda tensor on cuda:0");
  EXPECT_EQ(
      error_of([&] { comm.all_reduce(at::zeros({3}, on(0).dtype(at::kByte)), ReduceOp::max); }),
      "nccl all_reduce: cannot reduce a Byte tensor (fp8 data is stored as Byte, and its "
      "bytes would be reduced as integers)");
  EXPECT_EQ(error_of([&] { comm.broadcast(at::zeros({3}, on(0).dtype(at::kComplexFloat)), 0); }),
            "nccl broadcast: dtype ComplexFloat has no nccl type (expected one of BFloat16, Half, "
            "Float, Double, Int, Long, Byte, Char, Bool)");
  EXPECT_EQ(error_of([&] {
              comm.all_to_all(at::zeros({world_, 2}, on(0)), at::zeros({5, 2}, on(0)), {},
                              {1, 1, 1, 1, 1});
            }),
            "nccl all_to_all: in_splits has 5 entries, expected " + w + " (one per rank)");
}

}  // namespace
}  // namespace pkb::ref

#else  // PKB_HAVE_NCCL

TEST(NcclCommWorld, NeedsNccl) { GTEST_SKIP() << "built without NCCL (PKB_HAVE_NCCL unset)"; }

#endif  // PKB_HAVE_NCCL
