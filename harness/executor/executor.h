// The executor: one sample from start to verdict, in this process (the body of pkb-worker and of
// pkb-sim-worker). Trials with secret seeds and module reloads between them, then for a correct
// candidate either timing interleaved with the baseline (GPUs) or repeated untimed calls (the
// simulated node, which measures nothing), and in both cases a re-check of outputs after the
// repeated calls. A candidate's failure is a status in the result, never an exception.
#pragma once

#include "harness/executor/baseline.h"
#include "harness/executor/executor_setup.h"
#include "harness/executor/worker_protocol.h"

namespace pkb::harness {

/// Where a sample runs: the device, and the baseline to time against (none on the simulated node).
struct Backend {
  DeviceFactory make_device;
  BaselineFactory make_baseline;  // empty: the candidate is not timed
};

/// Runs the request. Throws only for failures of pkb's own side that leave nothing to report
/// about the candidate (an unreadable problem); everything the candidate causes is the status.
WorkerResult run_sample(const WorkerRequest& request, const Backend& backend);

}  // namespace pkb::harness
