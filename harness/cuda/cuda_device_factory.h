// The DeviceFactory pkb-worker uses: a CudaDevice over the request's GPUs, emulating W ranks on
// one GPU when the request says so or (auto) when the machine has fewer than W GPUs.
#pragma once

#include <memory>

#include "harness/executor/exec_device.h"
#include "harness/executor/worker_protocol.h"

namespace pkb::harness {

std::unique_ptr<ExecDevice> make_cuda_device(const WorkerRequest& request);

}  // namespace pkb::harness
