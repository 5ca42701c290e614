// Collectives without NCCL, for emulated ranks (W ranks on one GPU, where NCCL refuses to run two
// ranks): one group's collective calls, as every rank issued them, become plain data movement,
// copies and element-wise reductions over the ranks' buffers, run in order on one stream once every
// rank has arrived. The results are NCCL's (docs/ABI.md, "Library steps"); only the speed is not,
// and emulated timings never count. Pure: the CUDA device runs the moves with cuMemcpyAsync and a
// harness kernel, the tests' host device with memcpy and a loop.
#pragma once

#include <cstdint>
#include <vector>

#include "harness/device/device.h"

namespace pkb::harness {

/// One collective call as a rank issued it in the group.
struct IssuedCollective {
  int rank = 0;
  int stream = 0;
  CollectiveCall call;
};

struct CollectiveMove {
  enum class Kind { copy, reduce } kind = Kind::copy;
  DevAddr dst = 0;
  std::vector<DevAddr> srcs;  // copy: one; reduce: one per rank, in rank order
  std::uint64_t count = 0;    // elements
  DType dtype = DType::fp32;
  plan::ReduceOp op = plan::ReduceOp::sum;  // avg divides the sum by srcs.size()
};

/// The moves of one group, in an order that keeps NCCL's in-place forms correct (a reduction
/// reads and writes each element once; no copy overwrites a buffer a later move reads). Calls
/// that name one of the problem's groups (CollectiveCall::members) move data within their
/// instance only, in its ranks' terms. Throws plan::PlanError for calls that cannot complete: a
/// send without its recv (or counts that differ), a collective that not every rank of its
/// instance issued, or a reduction of a type it cannot add.
std::vector<CollectiveMove> plan_collective_moves(const std::vector<IssuedCollective>& group,
                                                  int world);

/// The parts of one group that complete independently, as on NCCL, where each communicator
/// progresses on its own: the collective calls of each instance they span (the world, or one
/// instance of a group), in order of first issue, then all sends and recvs together.
std::vector<std::vector<IssuedCollective>> split_by_communicator(
    const std::vector<IssuedCollective>& group);

}  // namespace pkb::harness
