// The communicator every C++ reference uses: the collectives of torch.distributed, on ATen tensors.
// Two implementations: SimWorld (W ranks as W threads in one process, tensors on the CPU or one GPU)
// and NcclComm (one rank per GPU). Every rank of a group calls the same operations in the same order.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <ATen/ATen.h>

namespace pkb::ref {

/// Enumerators equal their serialized names.
enum class ReduceOp { sum, max, min, avg };
const char* reduce_op_name(ReduceOp op);

/// All tensors passed in must be contiguous. Shapes follow torch.distributed's tensor forms:
/// all_gather's `out` holds size() * in.numel() elements (rank s's data at offset s * in.numel()),
/// reduce_scatter's `in` holds size() * out.numel(), all_to_all splits run along dim 0.
class Comm {
 public:
  virtual ~Comm() = default;

  virtual int rank() const = 0;  // rank within this communicator
  virtual int size() const = 0;

  /// In place. bf16/fp16 sums accumulate in fp32 and round once (see SimWorld for variants).
  virtual void all_reduce(const at::Tensor& tensor, ReduceOp op) = 0;
  virtual void all_gather(const at::Tensor& out, const at::Tensor& in) = 0;
  virtual void reduce_scatter(const at::Tensor& out, const at::Tensor& in, ReduceOp op) = 0;
  /// `in_splits[d]` rows of `in` go to rank d; `out_splits[s]` rows of `out` come from rank s.
  /// Empty splits mean equal splits of dim 0.
  virtual void all_to_all(const at::Tensor& out, const at::Tensor& in,
                          const std::vector<std::int64_t>& out_splits,
                          const std::vector<std::int64_t>& in_splits) = 0;
  virtual void broadcast(const at::Tensor& tensor, int root) = 0;
  /// NCCL semantics: only the root's tensor changes; other ranks keep their input.
  virtual void reduce(const at::Tensor& tensor, int root, ReduceOp op) = 0;
  /// `in` (size() * out.numel() elements) is read on the root only.
  virtual void scatter(const at::Tensor& out, const at::Tensor& in, int root) = 0;
  /// `out` (size() * in.numel() elements) is written on the root only.
  virtual void gather(const at::Tensor& out, const at::Tensor& in, int root) = 0;
  virtual void send(const at::Tensor& tensor, int peer) = 0;
  virtual void recv(const at::Tensor& tensor, int peer) = 0;
  /// Sends `out` to rank `to` and receives `in` from rank `from` as one step (NCCL: one group), so
  /// a ring where every rank sends and receives cannot deadlock. Use it for ring exchanges; plain
  /// send/recv block on NCCL until the peer's matching call.
  virtual void send_recv(const at::Tensor& out, int to, const at::Tensor& in, int from) = 0;
  virtual void barrier() = 0;

  /// Every rank of this communicator calls split, each passing the members (ranks of this
  /// communicator, ascending) of the group it belongs to; the groups must partition the ranks.
  virtual std::unique_ptr<Comm> split(const std::vector<int>& members) = 0;

  /// A named sub-group declared in problem.json ("groups"), made by the runner before solve.
  Comm& group(const std::string& name) const;
  void add_group(const std::string& name, std::unique_ptr<Comm> group);

 private:
  std::map<std::string, std::unique_ptr<Comm>> groups_;
};

/// The members of the sub-group of `size` ranks that `rank` belongs to, in a world of `world`.
/// block: consecutive ranks; strided: ranks congruent modulo world / size.
std::vector<int> group_members(int world, int rank, int size, bool strided);

}  // namespace pkb::ref
