// CudaDevice: the Device interface on the CUDA driver API (docs/ARCHITECTURE.md, "Evaluation").
// One process, one host thread, W ranks: on W real GPUs (primary contexts, shared with libtorch)
// or emulated on GPU 0 (each rank with its own memory and streams, and its own SM partition
// through a green context when the driver can make one). Memory comes from VMM arenas mapped for
// every GPU of the run, so every rank's kernels can use every rank's symmetric buffers. Beyond
// Device it is an ExecDevice: it loads the candidate's module, reloads it between trials, and
// fills buffers with patterns (poison, garbage).
#pragma once

#include <cuda.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "harness/cuda/cublas_gemm.h"
#include "harness/executor/exec_device.h"
#include "harness/cuda/green_partition.h"
#include "harness/cuda/multicast_buffer.h"
#include "harness/cuda/nccl_collectives.h"
#include "harness/cuda/vmm_arena.h"
#include "harness/device/collective_moves.h"

namespace pkb::harness {

struct CudaDeviceOptions {
  int world = 2;
  bool emulate = false;        // W ranks on GPU devices[0]
  std::vector<int> devices;    // CUDA ordinals; empty: 0..W-1 (or 0 when emulating)
  bool green_contexts = true;  // emulation: partition SMs when the driver can
};

class CudaDevice final : public ExecDevice {
 public:
  explicit CudaDevice(const CudaDeviceOptions& options);
  ~CudaDevice() override;

  // ExecDevice. The module is loaded with cuLibraryLoadData: one library for every context.
  const DeviceInfo& info() const override { return info_; }
  void load_module(const std::string& cubin, const std::string& ptx) override;
  void reload_module() override;
  void prepare_library_steps(bool gemm, bool collectives) override;
  /// NCCL splits per group instance on real GPUs; emulated ranks move data per instance instead.
  void prepare_process_groups(const std::vector<ProcessGroup>& groups) override;
  void fill(int rank, DevAddr dst, const FillPattern& pattern, std::uint64_t bytes) override;

  // Device
  int world() const override { return world_; }
  plan::DeviceLimits limits() const override { return limits_; }
  bool emulated() const override { return info_.emulated; }
  SymmetricAlloc alloc_symmetric(std::uint64_t bytes_per_rank) override;
  SymmetricAlloc alloc_multicast(std::uint64_t bytes_per_rank) override;
  DevAddr alloc_local(int rank, std::uint64_t bytes) override;
  void write(int rank, DevAddr dst, const void* src, std::uint64_t bytes) override;
  void read(int rank, DevAddr src, void* dst, std::uint64_t bytes) override;
  void launch(int rank, int stream, const KernelLaunch& launch) override;
  void memset(int rank, int stream, DevAddr dst, std::uint8_t value, std::uint64_t bytes) override;
  void copy(int rank, int stream, DevAddr dst, DevAddr src, std::uint64_t bytes) override;
  void gemm(int rank, int stream, const GemmCall& call) override;
  void group_begin() override;
  void group_end() override;
  void collective(int rank, int stream, const CollectiveCall& call) override;
  void barrier(int rank, int stream) override;
  void delay(int rank, int stream, std::uint64_t ns) override;
  void record(int rank, int stream, int event) override;
  void wait(int rank, int stream, int event) override;
  double elapsed_ms(int rank, int start_event, int end_event) override;
  SyncResult synchronize(double timeout_s) override;

 private:
  void set_rank(int rank) const;  // makes the rank's context current
  CUstream stream(int rank, int index);
  CUevent event(int rank, int id);
  CUkernel candidate_kernel(const std::string& name);
  void check_params(CUkernel kernel, const KernelLaunch& launch);
  void set_limits();
  void load_harness_kernels();
  void load_into_every_context(CUlibrary library);
  void launch_harness(int rank, int stream, CUkernel kernel, unsigned int threads, void** params);
  // Emulated collectives (cuda_device_collectives.cpp).
  void prepare_emulated_collectives();
  void run_move(CUstream stream, const CollectiveMove& move);

  int world_ = 0;
  std::vector<CUdevice> rank_device_;  // per rank
  std::vector<int> rank_ordinal_;      // per rank
  std::vector<CUdevice> distinct_devices_;
  std::vector<CUcontext> primary_;          // per distinct device, retained
  std::unique_ptr<GreenPartitions> green_;  // emulation only
  std::vector<CUcontext> rank_context_;     // per rank: primary, or the rank's green context
  DeviceInfo info_;
  plan::DeviceLimits limits_;

  std::vector<std::unique_ptr<VmmArena>> symmetric_arena_, local_arena_;  // per rank
  std::vector<std::unique_ptr<MulticastBuffer>> multicast_;
  std::vector<std::vector<CUstream>> streams_;            // [rank][index], null until used
  std::vector<std::map<int, CUevent>> events_;            // [rank] id -> event
  std::vector<std::vector<unsigned int>> barrier_epoch_;  // [rank][stream]

  CUlibrary harness_library_ = nullptr;
  CUkernel barrier_kernel_ = nullptr, delay_kernel_ = nullptr, reduce_kernel_ = nullptr;
  SymmetricAlloc harness_pads_;

  std::string cubin_;
  CUlibrary candidate_library_ = nullptr;
  std::map<std::string, CUkernel> kernels_;
  std::set<CUkernel> params_checked_;  // kernels whose parameters the driver confirmed
  std::map<std::pair<CUkernel, CUdevice>, std::uint32_t> shared_set_;  // opt-in dynamic shared

  CublasGemm gemm_;
  std::unique_ptr<NcclCollectives> nccl_;  // real GPUs only
  // Emulation: the group's calls and where each rank's stream stood when it issued them; the
  // moves run on mover_ (rank 0's context) once all have arrived, and every issuing stream waits
  // for moved_.
  std::vector<IssuedCollective> group_;
  std::vector<CUevent> group_arrivals_;
  std::vector<std::vector<CUevent>> arrival_pool_;  // [rank], reused group after group
  CUstream mover_ = nullptr;
  CUevent moved_ = nullptr;
};

}  // namespace pkb::harness
