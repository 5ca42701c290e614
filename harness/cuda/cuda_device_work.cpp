// CudaDevice: the work it issues — launches, memsets, copies, library calls, barriers, events —
// and the watchdog that waits for it (see cuda_device.h).
#include <chrono>
#include <thread>

#include "harness/cuda/cu_check.h"
#include "harness/cuda/cuda_device.h"
#include "harness/cuda/harness_kernels.h"

namespace pkb::harness {
namespace {

// Launches with more dynamic shared memory than this need the kernel's opt-in attribute.
constexpr std::uint32_t kDefaultSharedLimit = 48 * 1024;
// The portable cluster size; larger clusters need the non-portable attribute.
constexpr std::uint64_t kPortableClusterSize = 8;
// How often the watchdog looks at the streams: short against kernel times of interest, long
// enough not to busy a host core.
constexpr auto kPollInterval = std::chrono::microseconds(200);

}  // namespace

CUstream CudaDevice::stream(int rank, int index) {
  if (index < 0 || index >= plan::kMaxStreams)
    throw Error("executor: stream " + std::to_string(index) + " is outside 0.." +
                std::to_string(plan::kMaxStreams - 1));
  CUstream& s = streams_.at(rank)[index];
  if (s == nullptr) {
    set_rank(rank);
    if (green_)
      PKB_CU_CHECK(cuGreenCtxStreamCreate(&s, green_->green(rank), CU_STREAM_NON_BLOCKING, 0));
    else
      PKB_CU_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  }
  return s;
}

CUevent CudaDevice::event(int rank, int id) {
  auto& events = events_.at(rank);
  const auto found = events.find(id);
  if (found != events.end()) return found->second;
  set_rank(rank);
  CUevent created = nullptr;
  // Timing is enabled on every event: the executor's timing events and the plan's ordering events
  // share one id space, and the cost on a wait is negligible.
  PKB_CU_CHECK(cuEventCreate(&created, CU_EVENT_DEFAULT));
  events[id] = created;
  return created;
}

void CudaDevice::launch(int rank, int stream_index, const KernelLaunch& launch) {
  CUstream s = stream(rank, stream_index);
  set_rank(rank);
  CUkernel kernel = candidate_kernel(launch.kernel);
  const CUdevice device = rank_device_[rank];
  check_params(kernel, launch);
  if (launch.shared_bytes > kDefaultSharedLimit) {
    std::uint32_t& set = shared_set_[{kernel, device}];
    if (set < launch.shared_bytes) {
      PKB_CU_CHECK(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        static_cast<int>(launch.shared_bytes), kernel, device));
      set = launch.shared_bytes;
    }
  }
  CUlaunchAttribute attributes[2] = {};
  unsigned int count = 0;
  if (launch.cooperative) {
    attributes[count].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attributes[count++].value.cooperative = 1;
  }
  if (launch.cluster.x > 0) {
    if (launch.cluster.total() > kPortableClusterSize)
      PKB_CU_CHECK(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1,
                                        kernel, device));
    attributes[count].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attributes[count].value.clusterDim.x = launch.cluster.x;
    attributes[count].value.clusterDim.y = launch.cluster.y;
    attributes[count++].value.clusterDim.z = launch.cluster.z;
  }
  CUlaunchConfig config{};
  config.gridDimX = launch.grid.x;
  config.gridDimY = launch.grid.y;
  config.gridDimZ = launch.grid.z;
  config.blockDimX = launch.block.x;
  config.blockDimY = launch.block.y;
  config.blockDimZ = launch.block.z;
  config.sharedMemBytes = launch.shared_bytes;
  config.hStream = s;
  config.attrs = attributes;
  config.numAttrs = count;
  // cuLaunchKernelEx reads each parameter's bytes through params[i]; the byte strings outlive
  // the call, which copies them.
  std::vector<void*> params;
  for (const std::string& param : launch.params) params.push_back(const_cast<char*>(param.data()));
  PKB_CU_CHECK(
      cuLaunchKernelEx(&config, reinterpret_cast<CUfunction>(kernel), params.data(), nullptr));
}

// The plan's arguments were checked against the PTX on the CPU; the driver's own view of the
// loaded kernel is checked once more before its first launch, so a
// disagreement between the PTX reader and the driver is an error, never a launch with wrong bytes.
void CudaDevice::check_params(CUkernel kernel, const KernelLaunch& launch) {
  if (!params_checked_.insert(kernel).second) return;
  for (std::size_t index = 0; index <= launch.params.size(); ++index) {
    std::size_t offset = 0, size = 0;
    const CUresult status = cuKernelGetParamInfo(kernel, index, &offset, &size);
    if (index == launch.params.size()) {
      if (status == CUDA_SUCCESS)
        throw Error("kernel '" + launch.kernel + "' takes more than the " + std::to_string(index) +
                    " parameters the plan passes (driver's view)");
      break;
    }
    if (status != CUDA_SUCCESS || size != launch.params[index].size())
      throw Error("kernel '" + launch.kernel + "' parameter " + std::to_string(index) + " is " +
                  (status == CUDA_SUCCESS ? std::to_string(size) + " bytes" : std::string("missing")) +
                  " on the device, the plan passes " + std::to_string(launch.params[index].size()) +
                  " bytes");
  }
}

void CudaDevice::launch_harness(int rank, int stream_index, CUkernel kernel, unsigned int threads,
                                void** params) {
  CUstream s = stream(rank, stream_index);
  set_rank(rank);
  CUlaunchConfig config{};
  config.gridDimX = config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = threads;
  config.blockDimY = config.blockDimZ = 1;
  config.hStream = s;
  PKB_CU_CHECK(cuLaunchKernelEx(&config, reinterpret_cast<CUfunction>(kernel), params, nullptr));
}

void CudaDevice::memset(int rank, int stream_index, DevAddr dst, std::uint8_t value,
                        std::uint64_t bytes) {
  CUstream s = stream(rank, stream_index);
  set_rank(rank);
  PKB_CU_CHECK(cuMemsetD8Async(dst, value, bytes, s));
}

void CudaDevice::copy(int rank, int stream_index, DevAddr dst, DevAddr src, std::uint64_t bytes) {
  // Unified addressing: a peer copy is a plain copy between VMM addresses mapped for both GPUs.
  CUstream s = stream(rank, stream_index);
  set_rank(rank);
  PKB_CU_CHECK(cuMemcpyAsync(dst, src, bytes, s));
}

void CudaDevice::gemm(int rank, int stream_index, const GemmCall& call) {
  CUstream s = stream(rank, stream_index);
  set_rank(rank);
  gemm_.run(rank, s, call);
}

void CudaDevice::barrier(int rank, int stream_index) {
  struct {
    CUdeviceptr pad[plan::kMaxRanks];
  } pads{};
  for (int peer = 0; peer < world_; ++peer) pads.pad[peer] = harness_pads_.addr[peer];
  int rank_arg = rank, world_arg = world_, slot = stream_index;
  unsigned int epoch = ++barrier_epoch_.at(rank).at(stream_index);
  void* params[] = {&pads, &rank_arg, &world_arg, &slot, &epoch};
  launch_harness(rank, stream_index, barrier_kernel_, 32, params);
}

void CudaDevice::delay(int rank, int stream_index, std::uint64_t ns) {
  unsigned long long duration = ns;
  void* params[] = {&duration};
  launch_harness(rank, stream_index, delay_kernel_, 1, params);
}

void CudaDevice::record(int rank, int stream_index, int id) {
  CUstream s = stream(rank, stream_index);
  PKB_CU_CHECK(cuEventRecord(event(rank, id), s));
}

void CudaDevice::wait(int rank, int stream_index, int id) {
  CUstream s = stream(rank, stream_index);
  PKB_CU_CHECK(cuStreamWaitEvent(s, event(rank, id), 0));
}

double CudaDevice::elapsed_ms(int rank, int start_event, int end_event) {
  set_rank(rank);
  float ms = 0;
  PKB_CU_CHECK(cuEventElapsedTime(&ms, event(rank, start_event), event(rank, end_event)));
  return ms;
}

SyncResult CudaDevice::synchronize(double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (true) {
    int pending_rank = -1;
    for (int rank = 0; rank < world_; ++rank) {
      cuCtxSetCurrent(rank_context_[rank]);
      for (CUstream s : streams_[rank]) {
        if (s == nullptr) continue;
        const CUresult status = cuStreamQuery(s);
        if (status == CUDA_ERROR_NOT_READY) {
          if (pending_rank < 0) pending_rank = rank;
        } else if (status != CUDA_SUCCESS) {
          return {false, false, rank, cu_error_text(status)};
        }
      }
    }
    if (pending_rank < 0) return {};
    if (std::chrono::steady_clock::now() >= deadline)
      return {false, true, pending_rank,
              "rank " + std::to_string(pending_rank) + " did not finish"};
    std::this_thread::sleep_for(kPollInterval);
  }
}

}  // namespace pkb::harness
