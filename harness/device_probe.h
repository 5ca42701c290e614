// What this machine offers for multi-GPU work (`pkb doctor`): GPUs, peer access between them,
// NVLink and multicast support, and the versions of the CUDA libraries pkb uses. Probing never
// throws: a missing driver or library is reported as such.
#pragma once

#include <string>
#include <vector>

namespace pkb::harness {

struct GpuInfo {
  int index = 0;
  std::string name;
  int sm_count = 0;
  int compute_major = 0;
  int compute_minor = 0;
  double memory_gib = 0;
  bool multicast = false;  // NVSwitch multicast objects (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED)
  int nvlinks_active = -1;  // -1: unknown (NVML not loadable)
};

struct MachineInfo {
  std::string cuda_runtime;  // "13.0"
  std::string cuda_driver;   // "" when no driver is loaded
  std::string nvrtc;
  std::string nccl;          // "" when pkb was built without NCCL
  std::string gpu_error;     // why no GPU is visible, "" when GPUs were found
  std::vector<GpuInfo> gpus;
  /// peer_access[a][b]: GPU a can map GPU b's memory; peer_rank: the driver's performance rank.
  std::vector<std::vector<bool>> peer_access;
  std::vector<std::vector<int>> peer_rank;
};

MachineInfo probe_machine();

}  // namespace pkb::harness
