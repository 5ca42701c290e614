// run_moves_on_host (see collective_moves_host.h).
#include "harness/device/collective_moves_host.h"

#include <cstring>

#include "harness/ptx/float_formats.h"
#include "src/common/error.h"

namespace pkb::harness {
namespace {

double load_floating(DevAddr base, std::uint64_t i, DType dtype) {
  switch (dtype) {
    case DType::fp16: return ptx::f16_to_double(reinterpret_cast<const std::uint16_t*>(base)[i]);
    case DType::bf16: return ptx::bf16_to_double(reinterpret_cast<const std::uint16_t*>(base)[i]);
    case DType::fp32: return reinterpret_cast<const float*>(base)[i];
    default: return reinterpret_cast<const double*>(base)[i];
  }
}

void store_floating(DevAddr base, std::uint64_t i, DType dtype, double value) {
  const float narrow = static_cast<float>(value);
  switch (dtype) {
    case DType::fp16:
      reinterpret_cast<std::uint16_t*>(base)[i] = ptx::float_to_f16_rn(narrow);
      break;
    case DType::bf16:
      reinterpret_cast<std::uint16_t*>(base)[i] = ptx::float_to_bf16_rn(narrow);
      break;
    case DType::fp32: reinterpret_cast<float*>(base)[i] = narrow; break;
    default: reinterpret_cast<double*>(base)[i] = value; break;
  }
}

long long load_integer(DevAddr base, std::uint64_t i, DType dtype) {
  switch (dtype) {
    case DType::int8: return reinterpret_cast<const std::int8_t*>(base)[i];
    case DType::uint8: return reinterpret_cast<const std::uint8_t*>(base)[i];
    case DType::int32: return reinterpret_cast<const std::int32_t*>(base)[i];
    default: return reinterpret_cast<const std::int64_t*>(base)[i];
  }
}

void store_integer(DevAddr base, std::uint64_t i, DType dtype, long long value) {
  switch (dtype) {
    case DType::int8: reinterpret_cast<std::int8_t*>(base)[i] = static_cast<std::int8_t>(value); break;
    case DType::uint8: reinterpret_cast<std::uint8_t*>(base)[i] = static_cast<std::uint8_t>(value); break;
    case DType::int32: reinterpret_cast<std::int32_t*>(base)[i] = static_cast<std::int32_t>(value); break;
    default: reinterpret_cast<std::int64_t*>(base)[i] = value; break;
  }
}

template <class T>
T combine(T a, T b, plan::ReduceOp op) {
  switch (op) {
    case plan::ReduceOp::prod: return a * b;
    case plan::ReduceOp::max: return a > b ? a : b;
    case plan::ReduceOp::min: return a < b ? a : b;
    default: return a + b;  // sum, and avg before its division
  }
}

}  // namespace

void run_moves_on_host(const std::vector<CollectiveMove>& moves,
                       const std::function<void(DevAddr, std::uint64_t)>& wrote) {
  for (const auto& move : moves) {
    const std::uint64_t bytes = move.count * dtype_size(move.dtype);
    if (move.kind == CollectiveMove::Kind::copy) {
      std::memmove(reinterpret_cast<void*>(move.dst), reinterpret_cast<const void*>(move.srcs[0]), bytes);
    } else {
      const bool floating = move.dtype == DType::fp16 || move.dtype == DType::bf16 ||
                            move.dtype == DType::fp32 || move.dtype == DType::fp64;
      const auto n = static_cast<long long>(move.srcs.size());
      for (std::uint64_t i = 0; i < move.count; ++i) {
        if (floating) {
          double acc = load_floating(move.srcs[0], i, move.dtype);
          for (std::size_t k = 1; k < move.srcs.size(); ++k)
            acc = combine(acc, load_floating(move.srcs[k], i, move.dtype), move.op);
          if (move.op == plan::ReduceOp::avg) acc /= static_cast<double>(n);
          store_floating(move.dst, i, move.dtype, acc);
        } else {
          long long acc = load_integer(move.srcs[0], i, move.dtype);
          for (std::size_t k = 1; k < move.srcs.size(); ++k)
            acc = combine(acc, load_integer(move.srcs[k], i, move.dtype), move.op);
          if (move.op == plan::ReduceOp::avg) acc /= n;
          store_integer(move.dst, i, move.dtype, acc);
        }
      }
    }
    if (wrote) wrote(move.dst, bytes);
  }
}

}  // namespace pkb::harness
