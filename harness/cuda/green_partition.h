// SM partitions for emulated ranks: W green contexts on one GPU, each
// with a disjoint set of SMs, so a rank spinning on a peer's flag cannot occupy the SMs that peer
// needs to make progress. The driver says concurrency is still not guaranteed (hardware queues are
// shared), so the executor keeps its watchdog. Unverified on a GPU: partition sizes on H200 and
// whether W = 8 spin barriers make progress.
#pragma once

#include <cuda.h>

#include <string>
#include <vector>

namespace pkb::harness {

class GreenPartitions {
 public:
  /// Tries to split `device` into `world` equal SM partitions. Never throws: when the driver has
  /// no green contexts or the GPU is too small, ok() is false and reason() says why.
  GreenPartitions(CUdevice device, int world);
  ~GreenPartitions();
  GreenPartitions(const GreenPartitions&) = delete;
  GreenPartitions& operator=(const GreenPartitions&) = delete;

  bool ok() const { return !contexts_.empty(); }
  const std::string& reason() const { return reason_; }
  int sms_per_rank() const { return sms_per_rank_; }
  CUgreenCtx green(int rank) const { return greens_.at(rank); }
  /// The green context as a CUcontext, for driver calls that need a current context.
  CUcontext context(int rank) const { return contexts_.at(rank); }

 private:
  void release() noexcept;

  std::vector<CUgreenCtx> greens_;
  std::vector<CUcontext> contexts_;
  int sms_per_rank_ = 0;
  std::string reason_;
};

}  // namespace pkb::harness
