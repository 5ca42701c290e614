// make_cuda_device (see cuda_device_factory.h).
#include "harness/cuda/cuda_device_factory.h"

#include <cuda.h>

#include "harness/cuda/cu_check.h"
#include "harness/cuda/cuda_device.h"
#include "harness/cuda/emulation.h"

namespace pkb::harness {

std::unique_ptr<ExecDevice> make_cuda_device(const WorkerRequest& request) {
  PKB_CU_CHECK(cuInit(0));
  int gpus = 0;
  PKB_CU_CHECK(cuDeviceGetCount(&gpus));
  CudaDeviceOptions options;
  options.world = request.world;
  options.emulate = decide_emulation(request.emulate, request.world, gpus);
  options.devices = request.devices;
  return std::make_unique<CudaDevice>(options);
}

}  // namespace pkb::harness
