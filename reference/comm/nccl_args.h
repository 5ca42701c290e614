// Argument checks and type mapping shared by NcclComm's operations: NCCL's names for ATen dtypes
// and reduce ops, chunk and split validation, and a guard that always closes an NCCL group.
#pragma once

#ifdef PKB_HAVE_NCCL

#include <nccl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "reference/comm/comm.h"
#include "reference/comm/cuda_check.h"

namespace pkb::ref::nccl_args {

std::string where(const char* op);  // "nccl OP: ", the prefix of every message
inline std::size_t count_of(const at::Tensor& tensor) { return static_cast<std::size_t>(tensor.numel()); }
ncclDataType_t nccl_dtype(const at::Tensor& tensor, const char* op);
ncclRedOp_t nccl_reduce_op(const at::Tensor& tensor, ReduceOp op, const char* what);
void check_same_dtype(const at::Tensor& out, const at::Tensor& in, const char* op);
/// `whole` must hold size chunks of `part` (all_gather's out, scatter's in, ...).
void check_chunks(const at::Tensor& whole, const char* whole_name, const at::Tensor& part, int size,
                  const char* op);
/// Elements in one row along dim 0; a tensor with no rows still has a row shape.
std::int64_t row_numel(const at::Tensor& tensor);
/// Rows exchanged with each rank along dim 0: the given list, or equal parts when it is empty.
std::vector<std::int64_t> resolve_splits(const std::vector<std::int64_t>& splits,
                                         const at::Tensor& tensor, const char* name, int size);

// Comm promises that bf16/fp16 sums round once. NCCL rounds to the tensor's dtype at every hop of
// its ring or tree, so those reductions run on fp32 copies, rounded once when copied back (where
// `write_back`). max and min are exact in any dtype.
template <typename Reduce>
void reduce_rounding_once(const at::Tensor& out, const at::Tensor& in, ReduceOp op, bool write_back,
                          Reduce reduce) {
  const at::ScalarType dtype = in.scalar_type();
  const bool narrow = dtype == at::kBFloat16 || dtype == at::kHalf;
  if (!narrow || op == ReduceOp::max || op == ReduceOp::min) return reduce(out, in);
  const at::Tensor wide_in = in.to(at::kFloat);
  const at::Tensor wide_out =
      out.is_same(in) ? wide_in : at::empty(out.sizes(), out.options().dtype(at::kFloat));
  reduce(wide_out, wide_in);
  if (write_back) out.copy_(wide_out);
}

// Closes an NCCL group on every path: a throw between ncclGroupStart and ncclGroupEnd would leave
// this thread inside the group, and its next NCCL call would be queued instead of run.
class NcclGroup {
 public:
  NcclGroup() { PKB_NCCL_CHECK(ncclGroupStart()); }
  ~NcclGroup() {
    if (open_) (void)ncclGroupEnd();
  }
  NcclGroup(const NcclGroup&) = delete;
  NcclGroup& operator=(const NcclGroup&) = delete;
  void end() {
    open_ = false;
    PKB_NCCL_CHECK(ncclGroupEnd());
  }

 private:
  bool open_ = true;
};

}  // namespace pkb::ref::nccl_args

#endif  // PKB_HAVE_NCCL
