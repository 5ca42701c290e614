// ExecDevice: what the executor needs beyond the plan interpreter's Device — the module of the
// candidate (load, and reload between trials so no __device__ state survives), pattern fills
// (poison, garbage) and a description of the hardware. CudaDevice (harness/cuda) runs the cubin on
// GPUs; SimDevice (harness/sim) runs the PTX on the simulated node; the CPU tests also use a
// host-memory one whose kernels are C++ functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/executor/poison.h"
#include "harness/device/device.h"
#include "harness/executor/worker_protocol.h"

namespace pkb::harness {

/// What the run ran on, for the sample's record.
struct DeviceInfo {
  std::vector<std::string> names;  // per rank
  bool emulated = false;
  bool simulated = false;  // the simulated node: verdicts only, no timing
  bool green_contexts = false;
  std::string green_note;  // why green contexts were not used, when they were not
  int sms_per_rank = 0;
  bool multicast = false;
  std::string arch;  // "sm_90"
  std::uint64_t l2_bytes = 0;
  double hbm_bytes_per_s = 0;  // peak, from the memory clock and bus width
};

class ExecDevice : public Device {
 public:
  virtual const DeviceInfo& info() const = 0;
  /// Loads the candidate's module: the cubin (GPUs) and the PTX it came from (the simulated node).
  virtual void load_module(const std::string& cubin, const std::string& ptx) = 0;
  /// Unloads and loads the module again; all work must have finished.
  virtual void reload_module() = 0;
  /// Sets up the libraries the plan's gemm and collective steps use before any call, so nothing
  /// allocates or connects while a candidate's kernel spins waiting for a peer.
  virtual void prepare_library_steps(bool gemm, bool collectives) = 0;
  /// Makes a communicator for each instance of each group the plan's collectives name (after
  /// prepare_library_steps, before any candidate work); only NCCL needs them, so a no-op elsewhere.
  virtual void prepare_process_groups(const std::vector<ProcessGroup>& groups) {}
  /// Writes `pattern` over [dst, dst + bytes) on the rank's stream 0.
  virtual void fill(int rank, DevAddr dst, const FillPattern& pattern, std::uint64_t bytes) = 0;
  /// How the next calls interleave, for correctness trial `trial` (the simulated node's schedules;
  /// GPUs interleave as they do and use launch delays instead). Returns the schedule's name, "".
  virtual std::string schedule_trial(int trial, std::uint64_t seed) { return ""; }
  /// What the last synchronize noticed that explains a wrong answer (a shuffle that read an
  /// exited lane); "" when nothing.
  virtual std::string call_notes() const { return ""; }
  /// The name of the allocation at `address`, for messages about accesses outside it.
  virtual void name_memory(DevAddr address, const std::string& name) {}
  /// What the simulated node did (its seed, lane-instructions, calls); nothing on a GPU.
  virtual std::optional<SimulationSummary> simulation() const { return std::nullopt; }
};

}  // namespace pkb::harness
