// CudaDevice's collective steps: NCCL on one GPU per rank; on emulated ranks (one GPU, where NCCL
// cannot run two ranks) the moves of harness/device/collective_moves.h, run on one stream of rank
// 0's context after every rank's stream has reached the call, with every issuing stream waiting
// for them to finish. The results are NCCL's; the time is not (emulated timings never count).
#include <algorithm>

#include "harness/cuda/cu_check.h"
#include "harness/cuda/cuda_device.h"
#include "harness/cuda/harness_kernels.h"
#include "src/common/error.h"

namespace pkb::harness {
namespace {

constexpr unsigned int kReduceThreads = 256;

int reduce_type_code(DType dtype) {
  switch (dtype) {
    case DType::fp16: return 0;
    case DType::bf16: return 1;
    case DType::fp32: return 2;
    case DType::fp64: return 3;
    case DType::int8: return 4;
    case DType::uint8: return 5;
    case DType::int32: return 6;
    case DType::int64: return 7;
    default: break;
  }
  // plan_collective_moves refuses every other type before a move is made.
  PKB_ASSERT(false, "no reduction code for " + std::string(dtype_name(dtype)));
  return -1;
}

}  // namespace

void CudaDevice::prepare_emulated_collectives() {
  if (mover_ != nullptr) return;
  arrival_pool_.assign(world_, {});
  set_rank(0);
  if (green_)
    PKB_CU_CHECK(cuGreenCtxStreamCreate(&mover_, green_->green(0), CU_STREAM_NON_BLOCKING, 0));
  else
    PKB_CU_CHECK(cuStreamCreate(&mover_, CU_STREAM_NON_BLOCKING));
  PKB_CU_CHECK(cuEventCreate(&moved_, CU_EVENT_DISABLE_TIMING));
}

void CudaDevice::group_begin() {
  if (nccl_) {
    nccl_->group_begin();
    return;
  }
  group_.clear();
  group_arrivals_.clear();
}

void CudaDevice::collective(int rank, int stream_index, const CollectiveCall& call) {
  CUstream s = stream(rank, stream_index);
  set_rank(rank);
  if (nccl_) {
    nccl_->collective(rank, s, call);
    return;
  }
  // prepare_library_steps made the mover stream. One arrival event per call of the group, from
  // the rank's pool (created in its context; an event is created without synchronizing).
  PKB_ASSERT(mover_ != nullptr, "collective before prepare_library_steps(..., true)");
  std::size_t used = 0;
  for (const auto& issued : group_) used += issued.rank == rank;
  auto& pool = arrival_pool_.at(rank);
  if (pool.size() <= used) {
    CUevent created = nullptr;
    PKB_CU_CHECK(cuEventCreate(&created, CU_EVENT_DISABLE_TIMING));
    pool.push_back(created);
  }
  PKB_CU_CHECK(cuEventRecord(pool[used], s));
  group_.push_back({rank, stream_index, call});
  group_arrivals_.push_back(pool[used]);
}

void CudaDevice::group_end() {
  if (nccl_) {
    nccl_->group_end();
    return;
  }
  if (group_.empty()) return;
  const std::vector<CollectiveMove> moves = plan_collective_moves(group_, world_);
  set_rank(0);
  for (CUevent arrival : group_arrivals_) PKB_CU_CHECK(cuStreamWaitEvent(mover_, arrival, 0));
  for (const auto& move : moves) run_move(mover_, move);
  PKB_CU_CHECK(cuEventRecord(moved_, mover_));
  // A wait captures the record made before it, so the next group's record cannot release these.
  for (const auto& issued : group_) {
    CUstream s = stream(issued.rank, issued.stream);
    PKB_CU_CHECK(cuStreamWaitEvent(s, moved_, 0));
  }
  group_.clear();
  group_arrivals_.clear();
}

void CudaDevice::run_move(CUstream s, const CollectiveMove& move) {
  if (move.count == 0) return;
  if (move.kind == CollectiveMove::Kind::copy) {
    // Unified addressing: every rank's VMM memory is mapped on the one GPU.
    PKB_CU_CHECK(cuMemcpyAsync(move.dst, move.srcs.at(0), move.count * dtype_size(move.dtype), s));
    return;
  }
  struct {
    CUdeviceptr p[kReduceMaxSources];
  } sources{};
  if (move.srcs.empty() || move.srcs.size() > static_cast<std::size_t>(kReduceMaxSources))
    throw Error("collective (emulated ranks): a reduction over " +
                std::to_string(move.srcs.size()) + " ranks");
  std::copy(move.srcs.begin(), move.srcs.end(), sources.p);
  int n = static_cast<int>(move.srcs.size());
  CUdeviceptr dst = move.dst;
  unsigned long long count = move.count;
  int type = reduce_type_code(move.dtype);
  int op = static_cast<int>(move.op);  // plan::ReduceOp's order is the kernel's
  void* params[] = {&sources, &n, &dst, &count, &type, &op};
  const unsigned long long blocks_needed = (count + kReduceThreads - 1) / kReduceThreads;
  CUlaunchConfig config{};
  config.gridDimX = static_cast<unsigned int>(
      std::min<unsigned long long>(blocks_needed, 4ull * std::max(1, info_.sms_per_rank)));
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = kReduceThreads;
  config.blockDimY = config.blockDimZ = 1;
  config.hStream = s;
  PKB_CU_CHECK(
      cuLaunchKernelEx(&config, reinterpret_cast<CUfunction>(reduce_kernel_), params, nullptr));
}

}  // namespace pkb::harness
