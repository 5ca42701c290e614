// CudaDevice: set-up, memory and modules (see cuda_device.h); the work it issues is in
// cuda_device_work.cpp.
#include "harness/cuda/cuda_device.h"

#include <algorithm>
#include <set>

#include "harness/cuda/cu_check.h"
#include "harness/cuda/harness_kernels.h"

namespace pkb::harness {
namespace {

// Address space per arena (reserved, not allocated). 8 ranks x (128 + 64) GiB stays far below the
// 47-bit user address space.
constexpr std::uint64_t kSymmetricReserve = 128ull << 30;
constexpr std::uint64_t kLocalReserve = 64ull << 30;
// cuBLAS workspace per rank, handed over so gemm steps never allocate (cuBLAS asks for up to
// 32 MiB on Hopper).
constexpr std::uint64_t kCublasWorkspace = 32ull << 20;
// Physical memory is mapped in chunks of at least this much, so a plan's many small buffers cost
// one mapping (mappings slow every later launch).
constexpr std::uint64_t kMinChunk = 256ull << 20;

int attribute(CUdevice device, CUdevice_attribute which) {
  int value = 0;
  PKB_CU_CHECK(cuDeviceGetAttribute(&value, which, device));
  return value;
}

}  // namespace

CudaDevice::CudaDevice(const CudaDeviceOptions& options)
    : world_(options.world), gemm_(options.world) {
  if (world_ < 1 || world_ > plan::kMaxRanks)
    throw Error("executor: world " + std::to_string(world_) + " is outside 1.." +
                std::to_string(plan::kMaxRanks));
  PKB_CU_CHECK(cuInit(0));
  int count = 0;
  PKB_CU_CHECK(cuDeviceGetCount(&count));
  info_.emulated = options.emulate;
  std::vector<int> ordinals = options.devices;
  if (ordinals.empty())
    for (int rank = 0; rank < (options.emulate ? 1 : world_); ++rank) ordinals.push_back(rank);
  if (options.emulate) ordinals.assign(world_, ordinals.front());
  if (static_cast<int>(ordinals.size()) != world_)
    throw Error("executor: " + std::to_string(world_) + " ranks need " + std::to_string(world_) +
                " devices, got " + std::to_string(ordinals.size()));
  for (int ordinal : ordinals) {
    if (ordinal < 0 || ordinal >= count)
      throw Error("executor: GPU " + std::to_string(ordinal) +
                  " does not exist (this machine has " + std::to_string(count) + ")");
    CUdevice device = 0;
    PKB_CU_CHECK(cuDeviceGet(&device, ordinal));
    rank_device_.push_back(device);
    rank_ordinal_.push_back(ordinal);
    if (std::find(distinct_devices_.begin(), distinct_devices_.end(), device) ==
        distinct_devices_.end())
      distinct_devices_.push_back(device);
  }
  if (!options.emulate && static_cast<int>(distinct_devices_.size()) != world_)
    throw Error("executor: the " + std::to_string(world_) + " ranks need distinct GPUs");
  for (CUdevice device : distinct_devices_) {
    CUcontext context = nullptr;
    PKB_CU_CHECK(cuDevicePrimaryCtxRetain(&context, device));
    primary_.push_back(context);
  }
  for (CUdevice a : distinct_devices_)
    for (CUdevice b : distinct_devices_) {
      int can = 1;
      if (a != b) PKB_CU_CHECK(cuDeviceCanAccessPeer(&can, a, b));
      if (!can)
        throw Error("executor: GPU " + std::to_string(a) + " cannot access GPU " +
                    std::to_string(b) + "'s memory (peer access): W-rank runs need every pair");
    }

  if (options.emulate && world_ > 1 && options.green_contexts) {
    green_ = std::make_unique<GreenPartitions>(rank_device_[0], world_);
    if (!green_->ok()) {
      info_.green_note = green_->reason();
      green_.reset();
    }
  } else if (options.emulate && world_ > 1) {
    info_.green_note = "green contexts turned off";
  }
  info_.green_contexts = green_ != nullptr;
  for (int rank = 0; rank < world_; ++rank) {
    const auto at =
        std::find(distinct_devices_.begin(), distinct_devices_.end(), rank_device_[rank]);
    rank_context_.push_back(green_ ? green_->context(rank)
                                   : primary_[at - distinct_devices_.begin()]);
  }
  set_rank(0);
  set_limits();

  streams_.assign(world_, std::vector<CUstream>(plan::kMaxStreams, nullptr));
  events_.resize(world_);
  barrier_epoch_.assign(world_, std::vector<unsigned int>(plan::kMaxStreams, 0));
  for (int rank = 0; rank < world_; ++rank) {
    symmetric_arena_.push_back(std::make_unique<VmmArena>(rank_device_[rank], distinct_devices_,
                                                          kSymmetricReserve, kMinChunk));
    local_arena_.push_back(std::make_unique<VmmArena>(
        rank_device_[rank], std::vector<CUdevice>{rank_device_[rank]}, kLocalReserve, kMinChunk));
  }
  if (!options.emulate) {
    std::vector<int> nccl_devices(rank_ordinal_.begin(), rank_ordinal_.end());
    nccl_ = std::make_unique<NcclCollectives>(nccl_devices);
  }
  load_harness_kernels();
}

CudaDevice::~CudaDevice() {
  // Never throws. The worker normally ends with _exit and skips this; it runs in tests and on
  // the error paths that still own a healthy context.
  for (int rank = 0; rank < world_; ++rank) {
    cuCtxSetCurrent(rank_context_[rank]);
    for (auto& [id, event] : events_[rank]) cuEventDestroy(event);
    for (CUstream stream : streams_[rank])
      if (stream != nullptr) cuStreamDestroy(stream);
    if (rank < static_cast<int>(arrival_pool_.size()))
      for (CUevent event : arrival_pool_[rank]) cuEventDestroy(event);
  }
  cuCtxSetCurrent(rank_context_.empty() ? nullptr : rank_context_[0]);
  if (moved_ != nullptr) cuEventDestroy(moved_);
  if (mover_ != nullptr) cuStreamDestroy(mover_);
  nccl_.reset();
  multicast_.clear();
  symmetric_arena_.clear();
  local_arena_.clear();
  if (candidate_library_ != nullptr) cuLibraryUnload(candidate_library_);
  if (harness_library_ != nullptr) cuLibraryUnload(harness_library_);
  green_.reset();
  for (CUdevice device : distinct_devices_) cuDevicePrimaryCtxRelease(device);
}

void CudaDevice::set_rank(int rank) const { PKB_CU_CHECK(cuCtxSetCurrent(rank_context_.at(rank))); }

void CudaDevice::set_limits() {
  const CUdevice device = rank_device_[0];
  char name[256] = {};
  for (CUdevice rank_device : rank_device_) {
    PKB_CU_CHECK(cuDeviceGetName(name, sizeof name, rank_device));
    info_.names.push_back(name);
  }
  const int sms = attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  // Without green contexts emulated ranks share every SM; a fair share keeps persistent kernels
  // sized by num_sms from starving each other.
  info_.sms_per_rank = green_           ? green_->sms_per_rank()
                       : info_.emulated ? std::max(1, sms / world_)
                                        : sms;
  limits_.num_sms = info_.sms_per_rank;
  limits_.max_threads_per_block = attribute(device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  limits_.max_block = {
      static_cast<std::uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)),
      static_cast<std::uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)),
      static_cast<std::uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z))};
  limits_.max_grid = {
      static_cast<std::uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)),
      static_cast<std::uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)),
      static_cast<std::uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z))};
  limits_.max_shared_bytes =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  std::size_t total = 0;
  PKB_CU_CHECK(cuDeviceTotalMem(&total, device));
  const std::uint64_t ranks_per_gpu = info_.emulated ? world_ : 1;
  limits_.memory_cap_bytes =
      std::min<std::uint64_t>(limits_.memory_cap_bytes, total / ranks_per_gpu * 7 / 10);
  bool multicast = !info_.emulated && world_ >= 2;
  for (CUdevice d : distinct_devices_)
    multicast = multicast && attribute(d, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED) != 0;
  limits_.multicast = multicast;
  info_.multicast = multicast;
  info_.arch = "sm_" +
               std::to_string(attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)) +
               std::to_string(attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
  info_.l2_bytes = static_cast<std::uint64_t>(attribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
  // Peak HBM bandwidth: memory clock (kHz) x 2 (double data rate) x bus width (bits) / 8.
  const double clock_khz = attribute(device, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  const double bus_bits = attribute(device, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  info_.hbm_bytes_per_s = clock_khz * 1e3 * 2 * bus_bits / 8;
}

void CudaDevice::load_into_every_context(CUlibrary library) {
  // Lazy loading would load a kernel into a context at its first launch, which can wait for work
  // already running there: a spin barrier whose peer is being loaded never finishes. So every
  // kernel is loaded into every rank's context now.
  unsigned int count = 0;
  PKB_CU_CHECK(cuLibraryGetKernelCount(&count, library));
  std::vector<CUkernel> kernels(count);
  if (count > 0) PKB_CU_CHECK(cuLibraryEnumerateKernels(kernels.data(), count, library));
  for (int rank = 0; rank < world_; ++rank) {
    set_rank(rank);
    for (CUkernel kernel : kernels) {
      CUfunction function = nullptr;
      PKB_CU_CHECK(cuKernelGetFunction(&function, kernel));
    }
  }
  set_rank(0);
}

void CudaDevice::load_harness_kernels() {
  const HarnessBinary binary = compile_harness_kernels(info_.arch);
  PKB_CU_CHECK(cuLibraryLoadData(&harness_library_, binary.cubin.data(), nullptr, nullptr, 0,
                                 nullptr, nullptr, 0));
  load_into_every_context(harness_library_);
  PKB_CU_CHECK(cuLibraryGetKernel(&barrier_kernel_, harness_library_, kBarrierKernel));
  PKB_CU_CHECK(cuLibraryGetKernel(&delay_kernel_, harness_library_, kDelayKernel));
  PKB_CU_CHECK(cuLibraryGetKernel(&reduce_kernel_, harness_library_, kReduceKernel));
  harness_pads_ = alloc_symmetric(kHarnessPadWords * sizeof(unsigned int));
  for (int rank = 0; rank < world_; ++rank) {
    memset(rank, 0, harness_pads_.addr[rank], 0, harness_pads_.bytes);
    set_rank(rank);
    PKB_CU_CHECK(cuStreamSynchronize(stream(rank, 0)));
  }
}

void CudaDevice::load_module(const std::string& cubin, const std::string&) {
  cubin_ = cubin;
  reload_module();
}

void CudaDevice::reload_module() {
  set_rank(0);
  if (candidate_library_ != nullptr) PKB_CU_CHECK(cuLibraryUnload(candidate_library_));
  candidate_library_ = nullptr;
  kernels_.clear();
  shared_set_.clear();
  params_checked_.clear();
  PKB_CU_CHECK(cuLibraryLoadData(&candidate_library_, cubin_.data(), nullptr, nullptr, 0, nullptr,
                                 nullptr, 0));
  load_into_every_context(candidate_library_);
}

void CudaDevice::prepare_library_steps(bool gemm, bool collectives) {
  if (gemm)
    for (int rank = 0; rank < world_; ++rank) {
      const DevAddr workspace = alloc_local(rank, kCublasWorkspace);
      set_rank(rank);
      gemm_.prepare(rank, workspace, kCublasWorkspace);
    }
  if (collectives && nccl_) nccl_->init();
  if (collectives && !nccl_) prepare_emulated_collectives();
  set_rank(0);
}

void CudaDevice::prepare_process_groups(const std::vector<ProcessGroup>& groups) {
  if (groups.empty() || !nccl_) return;
  nccl_->split(groups);
  set_rank(0);
}

CUkernel CudaDevice::candidate_kernel(const std::string& name) {
  const auto found = kernels_.find(name);
  if (found != kernels_.end()) return found->second;
  if (candidate_library_ == nullptr) throw Error("executor: no candidate module loaded");
  CUkernel kernel = nullptr;
  PKB_CU_CHECK(cuLibraryGetKernel(&kernel, candidate_library_, name.c_str()));
  kernels_[name] = kernel;
  return kernel;
}

SymmetricAlloc CudaDevice::alloc_symmetric(std::uint64_t bytes_per_rank) {
  SymmetricAlloc alloc;
  alloc.bytes = bytes_per_rank;
  for (int rank = 0; rank < world_; ++rank)
    alloc.addr.push_back(symmetric_arena_[rank]->alloc(bytes_per_rank));
  return alloc;
}

SymmetricAlloc CudaDevice::alloc_multicast(std::uint64_t bytes_per_rank) {
  if (!limits_.multicast)
    throw plan::PlanError(info_.emulated
                              ? "multicast buffers need one GPU per rank (this run emulates " +
                                    std::to_string(world_) + " ranks on one GPU)"
                              : "multicast buffers need NVSwitch multicast, which these GPUs lack");
  set_rank(0);
  multicast_.push_back(std::make_unique<MulticastBuffer>(rank_device_, bytes_per_rank));
  SymmetricAlloc alloc;
  alloc.bytes = bytes_per_rank;
  alloc.addr.assign(multicast_.back()->unicast().begin(), multicast_.back()->unicast().end());
  alloc.multicast_addr = multicast_.back()->multicast();
  return alloc;
}

DevAddr CudaDevice::alloc_local(int rank, std::uint64_t bytes) {
  return local_arena_.at(rank)->alloc(bytes);
}

void CudaDevice::write(int rank, DevAddr dst, const void* src, std::uint64_t bytes) {
  // On stream 0 and waited for, so it follows earlier fills there and precedes later work on any
  // stream (a plain cuMemcpyHtoD from pageable memory may return before the DMA lands).
  set_rank(rank);
  CUstream s = stream(rank, 0);
  PKB_CU_CHECK(cuMemcpyHtoDAsync(dst, src, bytes, s));
  PKB_CU_CHECK(cuStreamSynchronize(s));
}

void CudaDevice::read(int rank, DevAddr src, void* dst, std::uint64_t bytes) {
  set_rank(rank);
  CUstream s = stream(rank, 0);
  PKB_CU_CHECK(cuMemcpyDtoHAsync(dst, src, bytes, s));
  PKB_CU_CHECK(cuStreamSynchronize(s));
}

void CudaDevice::fill(int rank, DevAddr dst, const FillPattern& pattern, std::uint64_t bytes) {
  set_rank(rank);
  CUstream s = stream(rank, 0);
  const std::uint64_t units = bytes / pattern.unit_bytes;
  switch (pattern.unit_bytes) {
    case 4: PKB_CU_CHECK(cuMemsetD32Async(dst, pattern.value, units, s)); break;
    case 2:
      PKB_CU_CHECK(cuMemsetD16Async(dst, static_cast<unsigned short>(pattern.value), units, s));
      break;
    default:
      PKB_CU_CHECK(cuMemsetD8Async(dst, static_cast<unsigned char>(pattern.value), units, s));
      break;
  }
  const std::uint64_t tail = bytes - units * pattern.unit_bytes;  // bytes past the last whole unit
  if (tail > 0)
    PKB_CU_CHECK(cuMemsetD8Async(dst + units * pattern.unit_bytes,
                                 static_cast<unsigned char>(pattern.value), tail, s));
}

}  // namespace pkb::harness
