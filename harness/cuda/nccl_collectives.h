// Plan collective steps on NCCL: one communicator per rank over W distinct GPUs, created on the
// first collective (ncclCommInitAll from this thread), one more per rank and process group the
// plan names (split from it), all ranks' calls of one step inside one ncclGroupStart/End. NCCL
// refuses two ranks on one GPU, so emulated runs never get here (the executor reports plan_error
// first). Built as a stub that throws without PKB_HAVE_NCCL.
#pragma once

#include <cuda.h>

#include <memory>
#include <vector>

#include "harness/device/device.h"

namespace pkb::harness {

class NcclCollectives {
 public:
  explicit NcclCollectives(std::vector<int> devices);  // devices[r]: rank r's CUDA ordinal
  ~NcclCollectives();
  NcclCollectives(const NcclCollectives&) = delete;
  NcclCollectives& operator=(const NcclCollectives&) = delete;

  /// Creates the communicators (ncclCommInitAll). The first group_begin does it otherwise, but
  /// then in the middle of a call, where its allocations can wait for a spinning kernel.
  void init();
  /// Splits the world communicators once per instance of each group (ncclCommSplit, color the
  /// instance, key the world rank, all ranks inside one NCCL group from this thread), so a call
  /// that names a group runs on its instance's communicator. Called before any candidate work.
  void split(const std::vector<ProcessGroup>& groups);
  void group_begin();
  void group_end();
  /// Issues rank `rank`'s part of `call` on `stream`. Throws plan::PlanError for a dtype or
  /// reduction NCCL cannot do, pkb::Error for a failed NCCL call.
  void collective(int rank, CUstream stream, const CollectiveCall& call);

 private:
  struct Comms;
  std::vector<int> devices_;
  std::unique_ptr<Comms> comms_;  // null until the first group_begin
};

}  // namespace pkb::harness
