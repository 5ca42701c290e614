// See host_device.h.
#include "tests/gpu/host_device.h"

#include <cstring>

#include "harness/plan/plan.h"
#include "src/common/error.h"

namespace pkb::gpu_test {

namespace {
constexpr std::uint64_t kAlignment = 256;  // the Device contract
}  // namespace

HostDevice::HostDevice(int world) : world_(world), clock_ms_(world, 0.0), events_(world) {
  info_.names.assign(world, "host memory");
  info_.emulated = true;
  info_.sms_per_rank = 4;
  info_.arch = "host";
  info_.l2_bytes = 4096;  // small, so a timing run rotates a few dozen input sets, not thousands
  info_.hbm_bytes_per_s = 1e12;
  limits_.num_sms = 4;
  limits_.multicast = false;
}

void HostDevice::load_module(const std::string&, const std::string&) {
  module_state_.clear();
  ++module_loads_;
}

void HostDevice::reload_module() { load_module("", ""); }

harness::DevAddr HostDevice::allocate(std::uint64_t bytes) {
  blocks_.push_back(std::make_unique<std::uint8_t[]>(bytes + kAlignment));
  const auto raw = reinterpret_cast<std::uintptr_t>(blocks_.back().get());
  return (raw + kAlignment - 1) / kAlignment * kAlignment;
}

harness::SymmetricAlloc HostDevice::alloc_symmetric(std::uint64_t bytes_per_rank) {
  harness::SymmetricAlloc alloc;
  alloc.bytes = bytes_per_rank;
  for (int rank = 0; rank < world_; ++rank) alloc.addr.push_back(allocate(bytes_per_rank));
  return alloc;
}

harness::SymmetricAlloc HostDevice::alloc_multicast(std::uint64_t) {
  throw plan::PlanError("multicast buffers need one GPU per rank (host device)");
}

harness::DevAddr HostDevice::alloc_local(int, std::uint64_t bytes) { return allocate(bytes); }

void HostDevice::write(int, harness::DevAddr dst, const void* src, std::uint64_t bytes) {
  std::memcpy(reinterpret_cast<void*>(dst), src, bytes);
}

void HostDevice::read(int, harness::DevAddr src, void* dst, std::uint64_t bytes) {
  std::memcpy(dst, reinterpret_cast<const void*>(src), bytes);
}

void HostDevice::fill(int, harness::DevAddr dst, const harness::FillPattern& pattern,
                      std::uint64_t bytes) {
  auto* out = reinterpret_cast<std::uint8_t*>(dst);
  for (std::uint64_t at = 0; at < bytes; ++at)
    out[at] = static_cast<std::uint8_t>(pattern.value >> (8 * (at % pattern.unit_bytes)));
}

void HostDevice::launch(int rank, int, const harness::KernelLaunch& launch) {
  const auto found = kernels_.find(launch.kernel);
  if (found == kernels_.end()) throw Error("host device: no kernel " + launch.kernel);
  found->second(*this, rank, launch.params);
  clock_ms_[rank] += 1.0;
}

void HostDevice::memset(int, int, harness::DevAddr dst, std::uint8_t value, std::uint64_t bytes) {
  std::memset(reinterpret_cast<void*>(dst), value, bytes);
}

void HostDevice::copy(int, int, harness::DevAddr dst, harness::DevAddr src, std::uint64_t bytes) {
  std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), bytes);
}

void HostDevice::gemm(int, int, const harness::GemmCall&) { throw Error("host device: no gemm"); }

void HostDevice::collective(int rank, int stream, const harness::CollectiveCall& call) {
  group_.push_back({rank, stream, call});
}

namespace {

double load(harness::DevAddr base, std::uint64_t i, DType dtype) {
  switch (dtype) {
    case DType::bf16: return bf16_to_float(reinterpret_cast<const std::uint16_t*>(base)[i]);
    case DType::fp32: return reinterpret_cast<const float*>(base)[i];
    case DType::fp64: return reinterpret_cast<const double*>(base)[i];
    case DType::int32: return reinterpret_cast<const std::int32_t*>(base)[i];
    case DType::int64: return static_cast<double>(reinterpret_cast<const std::int64_t*>(base)[i]);
    default: throw Error("host device: no " + std::string(dtype_name(dtype)) + " reduction");
  }
}

void store(harness::DevAddr base, std::uint64_t i, DType dtype, double value) {
  switch (dtype) {
    case DType::bf16: reinterpret_cast<std::uint16_t*>(base)[i] = float_to_bf16(static_cast<float>(value)); break;
    case DType::fp32: reinterpret_cast<float*>(base)[i] = static_cast<float>(value); break;
    case DType::fp64: reinterpret_cast<double*>(base)[i] = value; break;
    case DType::int32: reinterpret_cast<std::int32_t*>(base)[i] = static_cast<std::int32_t>(value); break;
    default: reinterpret_cast<std::int64_t*>(base)[i] = static_cast<std::int64_t>(value); break;
  }
}

double combine(double a, double b, plan::ReduceOp op) {
  switch (op) {
    case plan::ReduceOp::prod: return a * b;
    case plan::ReduceOp::max: return a > b ? a : b;
    case plan::ReduceOp::min: return a < b ? a : b;
    default: return a + b;
  }
}

}  // namespace

void HostDevice::group_end() {
  for (const auto& move : harness::plan_collective_moves(group_, world_)) {
    if (move.kind == harness::CollectiveMove::Kind::copy) {
      std::memmove(reinterpret_cast<void*>(move.dst), reinterpret_cast<const void*>(move.srcs[0]),
                   move.count * dtype_size(move.dtype));
      continue;
    }
    for (std::uint64_t i = 0; i < move.count; ++i) {
      double acc = load(move.srcs[0], i, move.dtype);
      for (std::size_t k = 1; k < move.srcs.size(); ++k)
        acc = combine(acc, load(move.srcs[k], i, move.dtype), move.op);
      if (move.op == plan::ReduceOp::avg) acc /= static_cast<double>(move.srcs.size());
      store(move.dst, i, move.dtype, acc);
    }
  }
  group_.clear();
}

double HostDevice::elapsed_ms(int rank, int start_event, int end_event) {
  return events_.at(rank).at(end_event) - events_.at(rank).at(start_event);
}

harness::SyncResult HostDevice::synchronize(double) {
  const harness::SyncResult result = fault_;
  fault_ = {};
  return result;
}

float bf16_to_float(std::uint16_t bits) {
  const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, 4);
  return value;
}

std::uint16_t float_to_bf16(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  bits += 0x7FFFu + ((bits >> 16) & 1u);  // round to nearest even (inputs here are finite)
  return static_cast<std::uint16_t>(bits >> 16);
}

}  // namespace pkb::gpu_test
