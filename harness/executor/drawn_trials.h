// The trials at drawn sizes (WorkerRequest::drawn_trials; docs/ARCHITECTURE.md, "Evaluation"):
// after the trials at the request's dims, each drawn trial is a sample of its own at its sizes and
// SMs per rank, set up, run once and torn down before the next, so only one device exists at a
// time. Also how the simulated node's counters of several samples add up in one result.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "harness/executor/executor_setup.h"
#include "harness/executor/worker_protocol.h"

namespace pkb::harness {

/// "M=4 N=8": a trial's sizes, in its record and its messages.
std::string shape_text(const std::map<std::string, std::int64_t>& dims);

/// Adds the device's simulation counters (lane-instructions, calls) to the result's; the first
/// sample's schedule seed stays. Nothing on a GPU.
void add_simulation(WorkerResult& result, const ExecDevice& device);

/// Runs every drawn trial of `request`, appending each to result.trials. A failure is a
/// SampleFailed (or PlanError) whose message names the trial and its sizes ("trial 4 at M=143
/// N=113 (num_sms 2): ..."); `sample` then holds the failing trial's sample, whose counters the
/// caller adds; after a success it is empty and every trial's counters are in the result.
void run_drawn_trials(const WorkerRequest& request, const DeviceFactory& make_device,
                      std::unique_ptr<Sample>& sample, WorkerResult& result);

}  // namespace pkb::harness
