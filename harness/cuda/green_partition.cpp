// GreenPartitions (see green_partition.h).
#include "harness/cuda/green_partition.h"

#include "harness/cuda/cu_check.h"

namespace pkb::harness {

GreenPartitions::GreenPartitions(CUdevice device, int world) {
  CUdevResource all{};
  CUresult status = cuDeviceGetDevResource(device, &all, CU_DEV_RESOURCE_TYPE_SM);
  if (status != CUDA_SUCCESS) {
    reason_ = "cuDeviceGetDevResource: " + cu_error_text(status);
    return;
  }
  // Equal shares, rounded down to the co-scheduling alignment (8 SMs on compute capability 9.0).
  const unsigned int align = all.sm.smCoscheduledAlignment > 0 ? all.sm.smCoscheduledAlignment : 1;
  const unsigned int share = all.sm.smCount / static_cast<unsigned int>(world) / align * align;
  if (share == 0 || share < all.sm.minSmPartitionSize) {
    reason_ = std::to_string(all.sm.smCount) + " SMs cannot make " + std::to_string(world) +
              " partitions of at least " + std::to_string(all.sm.minSmPartitionSize);
    return;
  }
  std::vector<CUdevResource> groups(world);
  unsigned int count = static_cast<unsigned int>(world);
  CUdevResource rest{};
  status = cuDevSmResourceSplitByCount(groups.data(), &count, &all, &rest, 0, share);
  if (status != CUDA_SUCCESS || count < static_cast<unsigned int>(world)) {
    reason_ = status != CUDA_SUCCESS ? "cuDevSmResourceSplitByCount: " + cu_error_text(status)
                                     : "the driver made " + std::to_string(count) + " of " +
                                           std::to_string(world) + " SM partitions";
    return;
  }
  for (int rank = 0; rank < world; ++rank) {
    CUdevResourceDesc desc = nullptr;
    CUgreenCtx green = nullptr;
    CUcontext context = nullptr;
    status = cuDevResourceGenerateDesc(&desc, &groups[rank], 1);
    if (status == CUDA_SUCCESS)
      status = cuGreenCtxCreate(&green, desc, device, CU_GREEN_CTX_DEFAULT_STREAM);
    if (status == CUDA_SUCCESS) greens_.push_back(green);
    if (status == CUDA_SUCCESS) status = cuCtxFromGreenCtx(&context, green);
    if (status != CUDA_SUCCESS) {
      reason_ = "green context for rank " + std::to_string(rank) + ": " + cu_error_text(status);
      release();
      return;
    }
    contexts_.push_back(context);
  }
  sms_per_rank_ = static_cast<int>(groups[0].sm.smCount);
}

GreenPartitions::~GreenPartitions() { release(); }

void GreenPartitions::release() noexcept {
  for (CUgreenCtx green : greens_) cuGreenCtxDestroy(green);
  greens_.clear();
  contexts_.clear();
}

}  // namespace pkb::harness
