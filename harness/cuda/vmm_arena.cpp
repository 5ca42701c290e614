// VmmArena (see vmm_arena.h). Unverified on a GPU: that cuMemSetAccess alone (no
// cuCtxEnablePeerAccess) suffices for peer loads and stores, as NCCL's ncclMemAlloc relies on.
#include "harness/cuda/vmm_arena.h"

#include <algorithm>

#include "harness/cuda/cu_check.h"

namespace pkb::harness {

constexpr std::uint64_t kAllocAlignment = 256;  // the Device contract: 256-byte aligned addresses

std::uint64_t round_up(std::uint64_t value, std::uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

CUmemAllocationProp device_memory_prop(CUdevice device) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_NONE;  // one process: nothing is exported
  return prop;
}

std::vector<CUmemAccessDesc> read_write_access(const std::vector<CUdevice>& devices) {
  std::vector<CUmemAccessDesc> access;
  for (CUdevice device : devices) {
    CUmemAccessDesc desc{};
    desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    desc.location.id = device;
    desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    access.push_back(desc);
  }
  return access;
}

VmmArena::VmmArena(CUdevice device, std::vector<CUdevice> access, std::uint64_t reserve_bytes,
                   std::uint64_t min_chunk_bytes)
    : device_(device), access_(std::move(access)) {
  const CUmemAllocationProp prop = device_memory_prop(device_);
  std::size_t granularity = 0;
  PKB_CU_CHECK(
      cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  granularity_ = granularity;
  min_chunk_ = round_up(std::max<std::uint64_t>(min_chunk_bytes, 1), granularity_);
  reserved_ = round_up(reserve_bytes, granularity_);
  PKB_CU_CHECK(cuMemAddressReserve(&base_, reserved_, granularity_, 0, 0));
}

VmmArena::~VmmArena() {
  // Never throws: a failed unmap at the end of a sample leaves nothing worth reporting, and the
  // worker process ends right after.
  for (const Chunk& chunk : chunks_) {
    cuMemUnmap(chunk.address, chunk.bytes);
    cuMemRelease(chunk.handle);
  }
  if (base_ != 0) cuMemAddressFree(base_, reserved_);
}

void VmmArena::map_chunk(std::uint64_t at_least) {
  const std::uint64_t bytes = round_up(std::max(at_least, min_chunk_), granularity_);
  if (mapped_ + bytes > reserved_)
    throw Error("symmetric memory: arena of " + std::to_string(reserved_ >> 20) +
                " MiB is full (asked for " + std::to_string(bytes >> 20) + " MiB more)");
  const CUmemAllocationProp prop = device_memory_prop(device_);
  Chunk chunk{0, base_ + mapped_, bytes};
  PKB_CU_CHECK(cuMemCreate(&chunk.handle, bytes, &prop, 0));
  chunks_.push_back(chunk);  // released by the destructor even if mapping fails below
  PKB_CU_CHECK(cuMemMap(chunk.address, bytes, 0, chunk.handle, 0));
  const std::vector<CUmemAccessDesc> access = read_write_access(access_);
  PKB_CU_CHECK(cuMemSetAccess(chunk.address, bytes, access.data(), access.size()));
  mapped_ += bytes;
}

CUdeviceptr VmmArena::alloc(std::uint64_t bytes) {
  const std::uint64_t start = round_up(used_, kAllocAlignment);
  const std::uint64_t end = start + std::max<std::uint64_t>(bytes, 1);
  if (end > mapped_) map_chunk(end - mapped_);
  used_ = end;
  return base_ + start;
}

}  // namespace pkb::harness
