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
/// reads and writes each element once; no copy overwrites a buffer a later move reads). Throws
/// plan::PlanError for calls that cannot complete: a send without its recv (or counts that
/// differ), a collective that not every rank issued, or a reduction of a type it cannot add.
std::vector<CollectiveMove> plan_collective_moves(const std::vector<IssuedCollective>& group,
                                                  int world);

}  // namespace pkb::harness
