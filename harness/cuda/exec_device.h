// ExecDevice: what the executor needs beyond the plan interpreter's Device — the module of the
// candidate (load, and reload between trials so no __device__ state survives), pattern fills
// (poison, garbage) and a description of the hardware. CudaDevice is the real one; the CPU tests
// use a host-memory one, so the executor's logic runs without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/cuda/poison.h"
#include "harness/device/device.h"

namespace pkb::harness {

/// What the run ran on, for the sample's record.
struct DeviceInfo {
  std::vector<std::string> names;  // per rank
  bool emulated = false;
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
  /// Loads the candidate's module (a cubin).
  virtual void load_module(const std::string& cubin) = 0;
  /// Unloads and loads the module again; all work must have finished.
  virtual void reload_module() = 0;
  /// Sets up the libraries the plan's gemm and collective steps use before any call, so nothing
  /// allocates or connects while a candidate's kernel spins waiting for a peer.
  virtual void prepare_library_steps(bool gemm, bool collectives) = 0;
  /// Writes `pattern` over [dst, dst + bytes) on the rank's stream 0.
  virtual void fill(int rank, DevAddr dst, const FillPattern& pattern, std::uint64_t bytes) = 0;
};

}  // namespace pkb::harness
