// probe_machine through the CUDA runtime (which loads the driver itself, so pkb runs on machines
// without one), the driver entry point for multicast, and NVML through dlopen for NVLink.
#include "harness/device_probe.h"

#include <dlfcn.h>

#include <cuda_runtime_api.h>
#include <nvrtc.h>
#ifdef PKB_HAVE_NCCL
#include <nccl.h>
#endif

namespace pkb::harness {
namespace {

std::string version_text(int version) {  // 13000 -> "13.0"
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

constexpr int kMulticastAttribute = 132;  // CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED in cuda.h
constexpr int kMaxNvlinks = 18;           // NVML_NVLINK_MAX_LINKS on Hopper

bool multicast_supported(int device) {
  using GetAttribute = int (*)(int*, int, int);
  void* function = nullptr;
  cudaDriverEntryPointQueryResult status{};
  if (cudaGetDriverEntryPointByVersion("cuDeviceGetAttribute", &function, 12000, cudaEnableDefault,
                                       &status) != cudaSuccess ||
      function == nullptr)
    return false;
  int value = 0;
  return reinterpret_cast<GetAttribute>(function)(&value, kMulticastAttribute, device) == 0 && value != 0;
}

// NVML is part of the driver, not the toolkit: declared here by hand and loaded only if present.
void count_nvlinks(std::vector<GpuInfo>& gpus) {
  void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (nvml == nullptr) return;
  using Init = int (*)();
  using Handle = int (*)(unsigned, void**);
  using LinkState = int (*)(void*, unsigned, int*);
  auto init = reinterpret_cast<Init>(dlsym(nvml, "nvmlInit_v2"));
  auto handle = reinterpret_cast<Handle>(dlsym(nvml, "nvmlDeviceGetHandleByIndex_v2"));
  auto state = reinterpret_cast<LinkState>(dlsym(nvml, "nvmlDeviceGetNvLinkState"));
  auto shutdown = reinterpret_cast<Init>(dlsym(nvml, "nvmlShutdown"));
  if (init && handle && state && shutdown && init() == 0) {
    for (auto& gpu : gpus) {
      void* device = nullptr;
      if (handle(static_cast<unsigned>(gpu.index), &device) != 0) continue;
      gpu.nvlinks_active = 0;
      for (unsigned link = 0; link < kMaxNvlinks; ++link) {
        int active = 0;
        if (state(device, link, &active) == 0 && active) ++gpu.nvlinks_active;
      }
    }
    shutdown();
  }
  dlclose(nvml);
}

}  // namespace

MachineInfo probe_machine() {
  MachineInfo info;
  int version = 0;
  if (cudaRuntimeGetVersion(&version) == cudaSuccess) info.cuda_runtime = version_text(version);
  if (cudaDriverGetVersion(&version) == cudaSuccess && version > 0) info.cuda_driver = version_text(version);
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) == NVRTC_SUCCESS)
    info.nvrtc = std::to_string(major) + "." + std::to_string(minor);
#ifdef PKB_HAVE_NCCL
  if (ncclGetVersion(&version) == ncclSuccess)  // 22807 -> 2.28.7
    info.nccl = std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
                std::to_string(version % 100);
#endif
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    info.gpu_error = cudaGetErrorString(error);
    return info;
  }
  if (count == 0) info.gpu_error = "the driver reports no CUDA devices";
  for (int device = 0; device < count; ++device) {
    cudaDeviceProp props{};
    if (cudaGetDeviceProperties(&props, device) != cudaSuccess) continue;
    GpuInfo gpu;
    gpu.index = device;
    gpu.name = props.name;
    gpu.sm_count = props.multiProcessorCount;
    gpu.compute_major = props.major;
    gpu.compute_minor = props.minor;
    gpu.memory_gib = static_cast<double>(props.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
    gpu.multicast = multicast_supported(device);
    info.gpus.push_back(gpu);
  }
  info.peer_access.assign(count, std::vector<bool>(count, false));
  info.peer_rank.assign(count, std::vector<int>(count, 0));
  for (int a = 0; a < count; ++a) {
    for (int b = 0; b < count; ++b) {
      if (a == b) continue;
      int can = 0, rank = 0;
      if (cudaDeviceCanAccessPeer(&can, a, b) == cudaSuccess) info.peer_access[a][b] = can != 0;
      if (cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, a, b) == cudaSuccess)
        info.peer_rank[a][b] = rank;
    }
  }
  count_nvlinks(info.gpus);
  return info;
}

}  // namespace pkb::harness
