// RecordingDevice: a Device that runs nothing and writes down every call, in order, as one line
// ("r1 s0 launch allreduce grid 1,1,1 block 256,1,1 shared 0"), with addresses handed out from
// fake per-rank heaps. The plan interpreter's marshalling, layout and ordering are tested on it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/device/device.h"

namespace pkb::harness {

class RecordingDevice : public Device {
 public:
  explicit RecordingDevice(int world, bool emulated = false) : world_(world), emulated_(emulated) {}

  struct Allocation {
    int rank;
    DevAddr addr;
    std::uint64_t bytes;
  };

  std::vector<std::string> log;              // every call, in order
  std::vector<KernelLaunch> launches;        // launch() calls, in order (params kept as bytes)
  std::vector<int> launch_ranks;
  std::vector<Allocation> allocations;

  int world() const override { return world_; }
  plan::DeviceLimits limits() const override { return limits_; }
  bool emulated() const override { return emulated_; }

  SymmetricAlloc alloc_symmetric(std::uint64_t bytes_per_rank) override;
  SymmetricAlloc alloc_multicast(std::uint64_t bytes_per_rank) override;
  DevAddr alloc_local(int rank, std::uint64_t bytes) override;
  void write(int rank, DevAddr dst, const void* src, std::uint64_t bytes) override;
  void read(int rank, DevAddr src, void* dst, std::uint64_t bytes) override;

  void launch(int rank, int stream, const KernelLaunch& launch) override;
  void memset(int rank, int stream, DevAddr dst, std::uint8_t value, std::uint64_t bytes) override;
  void copy(int rank, int stream, DevAddr dst, DevAddr src, std::uint64_t bytes) override;
  void gemm(int rank, int stream, const GemmCall& call) override;
  void group_begin() override { log.push_back("group_begin"); }
  void group_end() override { log.push_back("group_end"); }
  void collective(int rank, int stream, const CollectiveCall& call) override;
  void barrier(int rank, int stream) override;
  void delay(int rank, int stream, std::uint64_t ns) override;
  void record(int rank, int stream, int event) override;
  void wait(int rank, int stream, int event) override;
  double elapsed_ms(int rank, int start_event, int end_event) override;
  SyncResult synchronize(double timeout_s) override;

  /// "0x..." as the log writes addresses.
  static std::string hex(DevAddr addr);

 private:
  DevAddr bump(int rank, std::uint64_t bytes);
  void note(int rank, int stream, const std::string& what);

  int world_;
  bool emulated_;
  plan::DeviceLimits limits_;
  std::map<int, DevAddr> next_;  // per rank: the next free fake address
};

}  // namespace pkb::harness
