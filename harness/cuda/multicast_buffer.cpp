// MulticastBuffer (see multicast_buffer.h). The order follows NCCL's transport/nvls.cc: create,
// add every device, then bind (bind blocks until all devices were added), then map. Unverified on
// a GPU: whether one multicast mapping with access for all devices works for every device's
// multimem instructions (NCCL maps one per process); if not, map it once per device.
#include "harness/cuda/multicast_buffer.h"

#include <algorithm>

#include "harness/cuda/cu_check.h"
#include "harness/cuda/vmm_arena.h"

namespace pkb::harness {

MulticastBuffer::MulticastBuffer(const std::vector<CUdevice>& devices, std::uint64_t bytes_per_rank)
    : devices_(devices) {
  CUmulticastObjectProp mc_prop{};
  mc_prop.numDevices = static_cast<unsigned int>(devices_.size());
  mc_prop.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  mc_prop.size = std::max<std::uint64_t>(bytes_per_rank, 1);
  std::size_t mc_granularity = 0;
  // The minimum granularity: the recommended one can be 512 MiB, which would make every small
  // multicast buffer that large.
  PKB_CU_CHECK(
      cuMulticastGetGranularity(&mc_granularity, &mc_prop, CU_MULTICAST_GRANULARITY_MINIMUM));
  std::uint64_t granularity = mc_granularity;
  for (CUdevice device : devices_) {
    const CUmemAllocationProp prop = device_memory_prop(device);
    std::size_t g = 0;
    PKB_CU_CHECK(cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    granularity = std::max<std::uint64_t>(granularity, g);
  }
  bytes_ = round_up(mc_prop.size, granularity);
  mc_prop.size = bytes_;
  PKB_CU_CHECK(cuMulticastCreate(&mc_handle_, &mc_prop));
  for (CUdevice device : devices_) PKB_CU_CHECK(cuMulticastAddDevice(mc_handle_, device));

  const std::vector<CUmemAccessDesc> access = read_write_access(devices_);
  const std::uint64_t world = devices_.size();
  PKB_CU_CHECK(cuMemAddressReserve(&unicast_base_, bytes_ * world, granularity, 0, 0));
  for (std::uint64_t rank = 0; rank < world; ++rank) {
    const CUmemAllocationProp prop = device_memory_prop(devices_[rank]);
    CUmemGenericAllocationHandle handle = 0;
    PKB_CU_CHECK(cuMemCreate(&handle, bytes_, &prop, 0));
    handles_.push_back(handle);
    const CUdeviceptr address = unicast_base_ + rank * bytes_;
    PKB_CU_CHECK(cuMemMap(address, bytes_, 0, handle, 0));
    unicast_.push_back(address);
    PKB_CU_CHECK(cuMemSetAccess(address, bytes_, access.data(), access.size()));
    PKB_CU_CHECK(cuMulticastBindMem(mc_handle_, 0, handle, 0, bytes_, 0));
    ++bound_;
  }
  PKB_CU_CHECK(cuMemAddressReserve(&multicast_va_, bytes_, mc_granularity, 0, 0));
  PKB_CU_CHECK(cuMemMap(multicast_va_, bytes_, 0, mc_handle_, 0));
  PKB_CU_CHECK(cuMemSetAccess(multicast_va_, bytes_, access.data(), access.size()));
}

MulticastBuffer::~MulticastBuffer() {
  // Never throws. The multicast mapping goes first, then the unbinding of every GPU, then the
  // unicast memory, and the multicast object last: each release needs the steps before it.
  if (multicast_va_ != 0) {
    cuMemUnmap(multicast_va_, bytes_);
    cuMemAddressFree(multicast_va_, bytes_);
  }
  for (int rank = 0; rank < bound_; ++rank)
    cuMulticastUnbind(mc_handle_, devices_[rank], 0, bytes_);
  for (std::size_t rank = 0; rank < handles_.size(); ++rank) {
    if (rank < unicast_.size()) cuMemUnmap(unicast_[rank], bytes_);
    cuMemRelease(handles_[rank]);
  }
  if (unicast_base_ != 0) cuMemAddressFree(unicast_base_, bytes_ * devices_.size());
  if (mc_handle_ != 0) cuMemRelease(mc_handle_);
}

}  // namespace pkb::harness
