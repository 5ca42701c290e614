// The one narrow interface between the plan interpreter and the GPUs: W ranks, each with numbered
// streams and events, memory the harness allocates, and the work a plan step issues. The real
// implementation is the CUDA driver API (harness/cuda/cuda_device.*); tests use a recording fake,
// so argument marshalling, buffer layout and stream/event order are checked on the CPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/plan/plan.h"

namespace pkb::harness {

using DevAddr = std::uint64_t;

/// A kernel launch with its parameters already marshalled, one byte string per parameter.
struct KernelLaunch {
  std::string kernel;
  plan::Dim3 grid, block, cluster{0, 0, 0};
  std::uint32_t shared_bytes = 0;
  bool cooperative = false;
  std::vector<std::string> params;  // raw bytes of each parameter, in order
};

/// A row-major GEMM with device addresses: C = alpha * op(A) * op(B) + beta * C.
struct GemmCall {
  DevAddr a = 0, b = 0, c = 0;
  DType ab_dtype = DType::bf16, c_dtype = DType::bf16;
  std::int64_t m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
  bool trans_a = false, trans_b = false;
  double alpha = 1, beta = 0;
};

/// An NCCL call of one rank with device addresses.
struct CollectiveCall {
  plan::CollectiveKind kind = plan::CollectiveKind::all_reduce;
  DevAddr send = 0, recv = 0;
  std::uint64_t count = 0;
  DType dtype = DType::fp32;
  plan::ReduceOp reduce = plan::ReduceOp::sum;
  int root = 0, peer = 0;  // ranks of the group when `group` is set, as NCCL's sub-communicator
  /// A collective over one of the problem's groups (-1: all W ranks): the group's index and the
  /// world ranks of the caller's instance in group-rank order (empty for the world).
  int group = -1;
  std::vector<int> members;
};

/// One of the problem's groups that the plan's collectives name: `group` is its index in the
/// problem, instance[r] world rank r's instance of it (the color of an NCCL split; the key is r,
/// as group ranks follow world order).
struct ProcessGroup {
  int group = 0;
  std::string name;
  std::vector<int> instance;
};

/// Memory of one allocation on every rank: addr[r] is rank r's copy, usable by every rank's
/// kernels (peer-mapped). multicast_addr is set for multicast allocations only.
struct SymmetricAlloc {
  std::vector<DevAddr> addr;
  DevAddr multicast_addr = 0;
  std::uint64_t bytes = 0;
};

struct SyncResult {
  bool ok = true;
  bool timed_out = false;
  int rank = -1;       // the rank that failed or did not finish, -1 when ok
  std::string error;   // "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"
  bool not_executed = false;  // the simulated node met an instruction it does not implement
  bool race = false;          // the simulated node saw a peer use a rank whose call had ended
};

class Device {
 public:
  virtual ~Device() = default;

  virtual int world() const = 0;
  virtual plan::DeviceLimits limits() const = 0;
  virtual bool emulated() const = 0;  // several ranks share one GPU

  // Memory. Addresses are 256-byte aligned. Allocations live until the Device is destroyed.
  virtual SymmetricAlloc alloc_symmetric(std::uint64_t bytes_per_rank) = 0;
  virtual SymmetricAlloc alloc_multicast(std::uint64_t bytes_per_rank) = 0;  // throws when unsupported
  virtual DevAddr alloc_local(int rank, std::uint64_t bytes) = 0;
  /// Host <-> device copies, synchronous (not on a plan stream).
  virtual void write(int rank, DevAddr dst, const void* src, std::uint64_t bytes) = 0;
  virtual void read(int rank, DevAddr src, void* dst, std::uint64_t bytes) = 0;

  // Work on rank `rank`'s stream `stream` (0..plan::kMaxStreams-1; created on first use).
  virtual void launch(int rank, int stream, const KernelLaunch& launch) = 0;
  virtual void memset(int rank, int stream, DevAddr dst, std::uint8_t value, std::uint64_t bytes) = 0;
  virtual void copy(int rank, int stream, DevAddr dst, DevAddr src, std::uint64_t bytes) = 0;
  virtual void gemm(int rank, int stream, const GemmCall& call) = 0;
  /// Collectives of all ranks for one step are issued between group_begin and group_end.
  virtual void group_begin() = 0;
  virtual void group_end() = 0;
  virtual void collective(int rank, int stream, const CollectiveCall& call) = 0;
  /// Every rank's stream waits here until all ranks reached it (a device-side barrier).
  virtual void barrier(int rank, int stream) = 0;
  /// Busy-waits on the GPU for `ns` nanoseconds (launch skew in correctness runs).
  virtual void delay(int rank, int stream, std::uint64_t ns) = 0;

  // Events: ids are the caller's, per rank; an id is reused after every wait on it was issued.
  virtual void record(int rank, int stream, int event) = 0;
  virtual void wait(int rank, int stream, int event) = 0;
  /// Milliseconds between two recorded events of one rank (both complete).
  virtual double elapsed_ms(int rank, int start_event, int end_event) = 0;

  /// Waits until all work on every rank finished, at most `timeout_s`. A sticky CUDA error or the
  /// deadline is reported, not thrown: the caller records it and ends the process.
  virtual SyncResult synchronize(double timeout_s) = 0;
};

}  // namespace pkb::harness
