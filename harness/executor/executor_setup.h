// One sample's set-up for the executor: the problem, the device (W GPUs or W emulated ranks),
// the plan resolved against that device, and the PlanRunner holding every buffer. Also the way a
// candidate's failure travels up from deep inside a trial or a timing run: SampleFailed.
#pragma once

#include <ATen/ATen.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/executor/exec_device.h"
#include "harness/executor/worker_protocol.h"
#include "harness/device/plan_runner.h"
#include "src/problem/spec.h"

namespace pkb::harness {

/// A candidate's failure found mid-sample (status and one-line message); the executor records it.
class SampleFailed : public Error {
 public:
  SampleFailed(WorkerStatus status, const std::string& message) : Error(message), status_(status) {}
  WorkerStatus status() const { return status_; }

 private:
  WorkerStatus status_;
};

struct Sample {
  WorkerRequest request;
  problem::ProblemSpec spec;
  std::string cubin;
  std::unique_ptr<ExecDevice> device;
  std::unique_ptr<PlanRunner> runner;
  at::Device reference_device = at::kCPU;  // where references compute: cuda:0 when libtorch can
  std::string stage;                       // what the sample is doing now

  /// Records the stage here and in the progress file (read by pkb when it kills a hung worker).
  void progress(const std::string& now);
};

/// Makes the device a request runs on: W GPUs or W emulated ranks (cuda_device_factory.h), or a
/// host-memory device in CPU tests.
using DeviceFactory = std::function<std::unique_ptr<ExecDevice>(const WorkerRequest&)>;

/// Loads the problem and the candidate's files, creates the device, resolves the plan (PlanError
/// for a plan that does not fit the problem or this device) and allocates its buffers.
std::unique_ptr<Sample> set_up_sample(const WorkerRequest& request,
                                      const DeviceFactory& make_device);

/// Waits for all queued work; a hang past `timeout_s` or a device error becomes SampleFailed
/// (timeout / runtime_error) whose message starts with `what`.
void wait_or_fail(ExecDevice& device, double timeout_s, const std::string& what);

}  // namespace pkb::harness
