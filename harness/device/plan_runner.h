// The plan interpreter: allocates every buffer of one candidate call on a Device and issues the
// plan's steps for all W ranks. Arguments are marshalled here into the byte layouts pkb.cuh
// declares (pointers, Peers<T>, SignalPad, Context, scalars); the device only moves bytes.
#pragma once

#include <string>
#include <vector>

#include "harness/device/device.h"
#include "harness/plan/plan.h"

namespace pkb::harness {

class PlanRunner {
 public:
  /// plans[r] is rank r's resolved plan (same buffers and steps, rank-specific values).
  /// Allocates: problem inputs and outputs and symmetric plan buffers in the symmetric heap,
  /// multicast buffers in a multicast allocation, local buffers per rank, and the signal pad.
  PlanRunner(std::vector<plan::ResolvedPlan> plans, Device& device);

  int world() const { return static_cast<int>(plans_.size()); }
  const plan::ResolvedPlan& plan(int rank) const { return plans_.at(rank); }
  /// Rank `rank`'s address of buffer `buffer` (an index into the plan's buffers).
  DevAddr address(int rank, int buffer) const;
  DevAddr address(int rank, const std::string& name) const;
  DevAddr signal_pad(int rank) const;
  std::uint64_t signal_pad_bytes() const;

  /// One call of the candidate on every rank. Per rank: stream 0 records a fork event that every
  /// other stream the plan uses waits for; steps are issued in the plan's order, step by step
  /// across ranks (collective steps inside one group); every other stream then records a join
  /// event that stream 0 waits for. So work on stream 0 after issue() follows the whole call.
  void issue(int input_set = 0);

  /// Allocates another copy of every input (and inout output) buffer and returns its index:
  /// timing rotates input sets so the working set exceeds L2 (docs/ARCHITECTURE.md, "Evaluation"). Set 0 always exists.
  int add_input_set();
  int input_sets() const { return static_cast<int>(extra_sets_.size()) + 1; }
  /// Rank `rank`'s address of buffer `buffer` when input set `input_set` is bound (only input
  /// and inout buffers differ between sets).
  DevAddr address(int rank, int buffer, int input_set) const;
  /// Event ids below this are the runner's; a caller (the executor's timing) uses ids from here.
  int first_free_event() const;

  /// The library steps of the plan, for the sample's record: "gemm", "collective:all_reduce", ...
  std::vector<std::string> library_steps() const;

  /// The marshalled parameters of a kernel step for a rank (what issue() passes to launch).
  std::vector<std::string> marshal_args(int rank, const plan::KernelStep& step,
                                        int input_set = 0) const;

 private:
  std::vector<plan::ResolvedPlan> plans_;
  Device& device_;
  std::vector<SymmetricAlloc> allocs_;  // per buffer; local buffers use addr[rank] too
  std::vector<std::vector<SymmetricAlloc>> extra_sets_;  // [set-1][buffer], inputs/inouts only
  SymmetricAlloc signals_;
};

}  // namespace pkb::harness
