// HostDevice: an ExecDevice in host memory, so the executor's logic (buffers, poison, trials,
// checks, timing, re-checks, verdicts) runs on the CPU. "Kernels" are C++ functions registered by
// name that read their marshalled parameters; work runs when issued, every launch advances the
// rank's clock by one millisecond (the timing tests' fake time), and a kernel can inject a device
// fault or a hang that the next synchronize reports.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/executor/exec_device.h"
#include "harness/device/collective_moves.h"

namespace pkb::gpu_test {

class HostDevice;
using HostKernel =
    std::function<void(HostDevice& device, int rank, const std::vector<std::string>& params)>;

class HostDevice final : public harness::ExecDevice {
 public:
  explicit HostDevice(int world);

  void add_kernel(const std::string& name, HostKernel kernel) {
    kernels_[name] = std::move(kernel);
  }
  /// The next synchronize fails with `error` on `rank` (a sticky fault) or times out (a hang).
  void inject_fault(int rank, const std::string& error) { fault_ = {false, false, rank, error}; }
  void inject_hang(int rank) { fault_ = {false, true, rank, "hang"}; }
  /// Per-module state: cleared by reload_module, like __device__ globals.
  std::map<std::string, long>& module_state() { return module_state_; }
  int module_loads() const { return module_loads_; }

  // ExecDevice
  const harness::DeviceInfo& info() const override { return info_; }
  void load_module(const std::string& cubin, const std::string& ptx) override;
  void reload_module() override;
  void prepare_library_steps(bool, bool) override {}
  void fill(int rank, harness::DevAddr dst, const harness::FillPattern& pattern,
            std::uint64_t bytes) override;

  // Device
  int world() const override { return world_; }
  plan::DeviceLimits limits() const override { return limits_; }
  bool emulated() const override { return true; }
  harness::SymmetricAlloc alloc_symmetric(std::uint64_t bytes_per_rank) override;
  harness::SymmetricAlloc alloc_multicast(std::uint64_t bytes_per_rank) override;
  harness::DevAddr alloc_local(int rank, std::uint64_t bytes) override;
  void write(int rank, harness::DevAddr dst, const void* src, std::uint64_t bytes) override;
  void read(int rank, harness::DevAddr src, void* dst, std::uint64_t bytes) override;
  void launch(int rank, int stream, const harness::KernelLaunch& launch) override;
  void memset(int rank, int stream, harness::DevAddr dst, std::uint8_t value,
              std::uint64_t bytes) override;
  void copy(int rank, int stream, harness::DevAddr dst, harness::DevAddr src,
            std::uint64_t bytes) override;
  void gemm(int rank, int stream, const harness::GemmCall& call) override;
  /// Collectives as on emulated GPUs (harness/device/collective_moves.h), run at the group's end
  /// with memcpy and a host loop (bf16, fp32, fp64, int32 and int64 reductions).
  void group_begin() override { group_.clear(); }
  void group_end() override;
  void collective(int rank, int stream, const harness::CollectiveCall& call) override;
  void barrier(int rank, int stream) override {}
  void delay(int rank, int stream, std::uint64_t ns) override {}
  void record(int rank, int stream, int event) override { events_[rank][event] = clock_ms_[rank]; }
  void wait(int rank, int stream, int event) override {}
  double elapsed_ms(int rank, int start_event, int end_event) override;
  harness::SyncResult synchronize(double timeout_s) override;

 private:
  harness::DevAddr allocate(std::uint64_t bytes);

  int world_;
  harness::DeviceInfo info_;
  plan::DeviceLimits limits_;
  std::vector<std::unique_ptr<std::uint8_t[]>> blocks_;
  std::map<std::string, HostKernel> kernels_;
  std::map<std::string, long> module_state_;
  int module_loads_ = 0;
  harness::SyncResult fault_;
  std::vector<harness::IssuedCollective> group_;
  std::vector<double> clock_ms_;
  std::vector<std::map<int, double>> events_;
};

/// bf16 <-> float on the host (round to nearest even), for host kernels.
float bf16_to_float(std::uint16_t bits);
std::uint16_t float_to_bf16(float value);

}  // namespace pkb::gpu_test
