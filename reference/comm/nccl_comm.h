// NcclComm: the Comm interface on NCCL, one rank per GPU, on the memory of libtorch CUDA tensors.
//
// Threading: one thread per rank. A process either drives W GPUs (init_all, then rank r is used
// by thread r only) or owns one rank (the ncclUniqueId constructor). Every op blocks its thread
// until this rank's part is done, so calling the ranks of one process in turn from one thread
// deadlocks: rank 0 waits for peers that are never launched.
//
// Every op first waits for all work already queued on the rank's device (ATen may have written the
// inputs on any torch stream, which this file cannot name without torch's CUDA headers), then runs
// on the comm's own stream and waits for it. References are correctness oracles, run one op at a
// time; the timing baseline is measured elsewhere, so nothing here overlaps.
// Built only with PKB_HAVE_NCCL (CMake target pkb_nccl); without it this header declares nothing.
#pragma once

#ifdef PKB_HAVE_NCCL

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "reference/comm/comm.h"

namespace pkb::ref {

class NcclComm : public Comm {
 public:
  /// One communicator per device, rank r on devices[r], all in this process (ncclCommInitAll).
  /// Call from one thread; then hand comm r to thread r.
  static std::vector<std::unique_ptr<NcclComm>> init_all(const std::vector<int>& devices);

  /// One rank of a communicator spanning processes; every rank calls this at the same time.
  NcclComm(const ncclUniqueId& id, int rank, int size, int device);

  /// Never throws. In a communicator spanning processes, NCCL waits here for the peers on this
  /// node to destroy theirs too.
  ~NcclComm() override;

  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int device() const { return device_; }

  void all_reduce(const at::Tensor& tensor, ReduceOp op) override;
  void all_gather(const at::Tensor& out, const at::Tensor& in) override;
  void reduce_scatter(const at::Tensor& out, const at::Tensor& in, ReduceOp op) override;
  void all_to_all(const at::Tensor& out, const at::Tensor& in,
                  const std::vector<std::int64_t>& out_splits,
                  const std::vector<std::int64_t>& in_splits) override;
  void broadcast(const at::Tensor& tensor, int root) override;
  void reduce(const at::Tensor& tensor, int root, ReduceOp op) override;
  void scatter(const at::Tensor& out, const at::Tensor& in, int root) override {
    root_exchange(out, in, root, true);
  }
  void gather(const at::Tensor& out, const at::Tensor& in, int root) override {
    root_exchange(out, in, root, false);
  }
  /// send and recv block until the peer has made the matching call: in a ring, let even ranks
  /// send first and odd ranks receive first.
  void send(const at::Tensor& tensor, int peer) override { point_to_point(tensor, peer, true); }
  void recv(const at::Tensor& tensor, int peer) override { point_to_point(tensor, peer, false); }
  void send_recv(const at::Tensor& out, int to, const at::Tensor& in, int from) override;
  void barrier() override;
  /// Ranks of the new communicator follow their order in this one.
  std::unique_ptr<Comm> split(const std::vector<int>& members) override;

 private:
  /// Adopts `comm`, which lives on `device`.
  NcclComm(ncclComm_t comm, int device);
  void release() noexcept;

  /// Makes this rank's device current and waits for work already queued on it.
  void begin() const;
  /// Waits for the ops enqueued since begin().
  void finish() const;
  /// Throws unless `tensor` is defined, contiguous and on this rank's device.
  void check_tensor(const at::Tensor& tensor, const char* op, const char* name) const;
  void check_rank(int peer, const char* op, const char* name) const;

  void point_to_point(const at::Tensor& tensor, int peer, bool sending);
  /// scatter (the root sends chunks of `in`) or gather (the root receives chunks into `out`).
  void root_exchange(const at::Tensor& out, const at::Tensor& in, int root, bool scattering);

  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  int* barrier_buffer_ = nullptr;  // one int on the device, reduced by barrier()
  int device_ = 0;
  int rank_ = 0;
  int size_ = 0;
};

}  // namespace pkb::ref

#endif  // PKB_HAVE_NCCL
