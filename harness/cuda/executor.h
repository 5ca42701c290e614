// The executor: one sample from start to verdict, in this process (pkb-worker's body). Trials
// with secret seeds and module reloads between them, then (for a correct candidate) timing
// interleaved with the baseline, a re-check of outputs after timing, and the interim
// speed-of-light flag. A candidate's failure is a status in the result, never an exception.
#pragma once

#include "harness/cuda/executor_setup.h"
#include "harness/cuda/worker_protocol.h"

namespace pkb::harness {

/// Runs the request. Throws only for failures of pkb's own side that leave nothing to report
/// about the candidate (an unreadable problem); everything the candidate causes is the status.
WorkerResult run_sample(const WorkerRequest& request, const DeviceFactory& make_device);

}  // namespace pkb::harness
