// NCCL argument checks and type mapping (nccl_args.h).
#ifdef PKB_HAVE_NCCL

#include "reference/comm/nccl_args.h"

#include "src/common/error.h"

namespace pkb::ref::nccl_args {

std::string where(const char* op) { return std::string("nccl ") + op + ": "; }


ncclDataType_t nccl_dtype(const at::Tensor& tensor, const char* op) {
  switch (tensor.scalar_type()) {
    case at::kBFloat16: return ncclBfloat16;
    case at::kHalf: return ncclFloat16;
    case at::kFloat: return ncclFloat32;
    case at::kDouble: return ncclFloat64;
    case at::kInt: return ncclInt32;
    case at::kLong: return ncclInt64;
    case at::kByte: return ncclUint8;
    case at::kChar: return ncclInt8;
    case at::kBool: return ncclUint8;
    default: break;
  }
  throw Error(where(op) + "dtype " + c10::toString(tensor.scalar_type()) +
              " has no nccl type (expected one of BFloat16, Half, Float, Double, Int, Long, Byte, "
              "Char, Bool)");
}

// fp8 data travels as uint8, and NCCL would reduce its bytes as integers. Bool follows
// torch.distributed: a sum or max of flags is their logical or, a min their logical and.
ncclRedOp_t nccl_reduce_op(const at::Tensor& tensor, ReduceOp op, const char* what) {
  const at::ScalarType dtype = tensor.scalar_type();
  if (dtype == at::kByte)
    throw Error(where(what) +
                "cannot reduce a Byte tensor (fp8 data is stored as Byte, and its "
                "bytes would be reduced as integers)");
  if (dtype == at::kBool && op == ReduceOp::avg)
    throw Error(where(what) + "avg is not defined on Bool tensors");
  switch (op) {
    case ReduceOp::sum: return dtype == at::kBool ? ncclMax : ncclSum;
    case ReduceOp::max: return ncclMax;
    case ReduceOp::min: return ncclMin;
    case ReduceOp::avg: return ncclAvg;
  }
  PKB_ASSERT(false, "unhandled ReduceOp");
  return ncclSum;
}


void check_same_dtype(const at::Tensor& out, const at::Tensor& in, const char* op) {
  if (out.scalar_type() != in.scalar_type())
    throw Error(where(op) + "out is " + c10::toString(out.scalar_type()) + ", in is " +
                c10::toString(in.scalar_type()));
}

// `whole` must hold size chunks of `part` (all_gather's out, scatter's in, ...).
void check_chunks(const at::Tensor& whole, const char* whole_name, const at::Tensor& part, int size,
                  const char* op) {
  if (whole.numel() != size * part.numel())
    throw Error(where(op) + whole_name + " has " + std::to_string(whole.numel()) +
                " elements, expected " + std::to_string(size) + " * " +
                std::to_string(part.numel()));
}

// Elements in one row along dim 0; a tensor with no rows still has a row shape.
std::int64_t row_numel(const at::Tensor& tensor) {
  std::int64_t numel = 1;
  for (std::int64_t dim = 1; dim < tensor.dim(); ++dim) numel *= tensor.size(dim);
  return numel;
}

// Rows exchanged with each rank along dim 0: the given list, or equal parts when it is empty.
std::vector<std::int64_t> resolve_splits(const std::vector<std::int64_t>& splits,
                                         const at::Tensor& tensor, const char* name, int size) {
  const std::string at_name = where("all_to_all") + name;
  const std::int64_t rows = tensor.size(0);
  if (splits.empty()) {
    if (rows % size != 0)
      throw Error(at_name + " has " + std::to_string(rows) + " rows, not divisible by " +
                  std::to_string(size) + " ranks (pass " + name + "_splits)");
    return std::vector<std::int64_t>(size, rows / size);
  }
  if (static_cast<int>(splits.size()) != size)
    throw Error(at_name + "_splits has " + std::to_string(splits.size()) + " entries, expected " +
                std::to_string(size) + " (one per rank)");
  std::int64_t total = 0;
  for (const std::int64_t split : splits) {
    if (split < 0) throw Error(at_name + "_splits has a negative entry " + std::to_string(split));
    total += split;
  }
  if (total != rows)
    throw Error(at_name + "_splits sum to " + std::to_string(total) + ", expected the " +
                std::to_string(rows) + " rows of " + name);
  return splits;
}

}  // namespace pkb::ref::nccl_args

#endif  // PKB_HAVE_NCCL
