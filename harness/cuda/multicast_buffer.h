// One NVLS multicast buffer: a multicast object over W distinct GPUs,
// one physical allocation per rank bound to it and mapped for unicast peer access, and one
// multicast address mapped for every device. Only with W >= 2 real GPUs that all report
// CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED (checked by the caller, CudaDevice).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <vector>

namespace pkb::harness {

class MulticastBuffer {
 public:
  /// devices[r] is rank r's GPU (distinct). Throws CudaError when the driver refuses (no fabric
  /// manager, no NVSwitch).
  MulticastBuffer(const std::vector<CUdevice>& devices, std::uint64_t bytes_per_rank);
  ~MulticastBuffer();
  MulticastBuffer(const MulticastBuffer&) = delete;
  MulticastBuffer& operator=(const MulticastBuffer&) = delete;

  const std::vector<CUdeviceptr>& unicast() const { return unicast_; }
  CUdeviceptr multicast() const { return multicast_va_; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  std::vector<CUdevice> devices_;
  std::uint64_t bytes_ = 0;
  CUmemGenericAllocationHandle mc_handle_ = 0;
  std::vector<CUmemGenericAllocationHandle> handles_;
  std::vector<CUdeviceptr> unicast_;
  CUdeviceptr unicast_base_ = 0;
  CUdeviceptr multicast_va_ = 0;
  int bound_ = 0;
};

}  // namespace pkb::harness
