// SimDevice: the simulated node as an ExecDevice, so the executor (trials, poison and garbage
// fills, the changed-input check, module reloads, the re-checks) runs on it unchanged. Memory is
// host memory registered in the interpreter's memory map; each rank's streams and events are
// queues of work run in order by synchronize(), which interleaves every rank's kernels on the
// interpreter (harness/ptx) under the trial's schedule. Memsets, copies, fills, gemm (computed as
// cuBLAS rounds), collectives (the moves of the emulated path, run on the host) and the harness's
// barriers and delays happen at their turn. Nothing is timed: events carry virtual time only.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "harness/device/collective_moves.h"
#include "harness/executor/exec_device.h"
#include "harness/ptx/machine.h"

namespace pkb::harness {

struct SimOptions {
  int world = 2;
  std::uint64_t schedule_seed = 1;  // mixed into every trial's schedule
  std::uint64_t call_lane_budget = 2'000'000'000;  // lane-instructions per synchronize
  ptx::MemoryModel memory_model = ptx::MemoryModel::ptx;  // harness/ptx/memory_model/README.md
  int sms = 0;  // SMs per rank (0: simulated_sms(world)); drawn trials may ask for fewer
};

class SimDevice final : public ExecDevice {
 public:
  explicit SimDevice(const SimOptions& options);
  ~SimDevice() override;

  /// Counters for the result: lane-instructions executed and calls synchronized.
  const ptx::MachineStats& stats() const { return machine_.stats(); }
  int calls() const { return calls_; }
  ptx::Machine& machine() { return machine_; }

  // ExecDevice
  const DeviceInfo& info() const override { return info_; }
  void load_module(const std::string& cubin, const std::string& ptx) override;
  void reload_module() override;
  void prepare_library_steps(bool, bool) override {}
  void fill(int rank, DevAddr dst, const FillPattern& pattern, std::uint64_t bytes) override;
  std::string schedule_trial(int trial, std::uint64_t seed) override;
  std::string call_notes() const override { return notes_; }
  std::optional<SimulationSummary> simulation() const override;
  void name_memory(DevAddr address, const std::string& name) override;

  // Device
  int world() const override { return world_; }
  plan::DeviceLimits limits() const override { return limits_; }
  bool emulated() const override { return false; }
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
  struct Work {
    enum class Kind { launch, memset, copy, fill, gemm, collective, barrier, delay, record, wait };
    Kind kind = Kind::launch;
    KernelLaunch kernel;
    DevAddr dst = 0, src = 0;
    std::uint64_t bytes = 0;
    std::uint8_t value = 0;
    FillPattern pattern;
    GemmCall gemm;
    int group = -1;           // collective: its group; barrier: its generation
    std::uint64_t ns = 0;     // delay
    int event = -1;
    std::uint64_t sequence = 0;  // record: which recording; wait: the recording it waits for
    std::uint32_t order = 0;     // its place on its stream (from 1), for the memory model
    // Running state.
    bool started = false;
    std::uint64_t launch_id = 0;
    std::uint64_t until_ns = 0;
  };
  struct Event {
    std::uint64_t issued = 0;     // recordings issued
    std::uint64_t completed = 0;  // recordings done
    std::uint64_t at_ns = 0;      // virtual time of the last one done
    std::shared_ptr<const ptx::mm::Knowledge> known;  // the memory model: what its recording knew
  };
  struct Rank {
    std::vector<std::deque<Work>> streams;
    std::map<int, Event> events;
    int barriers_issued = 0;
    // The memory model (sim_device_order.cpp): per stream, what its next work item knows has
    // happened, and how many items were issued to it this call.
    std::vector<std::shared_ptr<ptx::mm::Knowledge>> known;
    std::vector<std::uint32_t> issued;
  };

  DevAddr allocate(int rank, std::uint64_t bytes, const std::string& name);
  std::deque<Work>& stream(int rank, int index);
  void push(int rank, int stream, Work work);
  bool advance();  // starts and finishes what can; true when something changed
  void mark_call_ends();   // ranks whose streams are done have ended their call (memory_map.h)
  void reset_call_ends();  // every rank in its call again
  bool try_start(int rank, int stream, Work& work, SyncResult& failure);
  /// "NAME of rank R after rank R's call had ended ..." when [address, +bytes) is memory of a
  /// peer of `rank` whose call has ended (memory_map.h); "" otherwise.
  std::string ended_peer(int rank, DevAddr address, std::uint64_t bytes) const;
  bool all_idle() const;
  // The memory model's ordering of plan steps (sim_device_order.cpp): what a step on (rank,
  // stream) knows, a step done on its stream, and agreements of several streams (a collective,
  // a barrier step) that join what they knew.
  ptx::LaunchOrder order_of(int rank, int stream, const Work& work);
  ptx::mm::Knowledge& stream_known(int rank, int stream);
  void done(int rank, int stream, const Work& work);
  /// Streams (rank, stream, the order of the meeting item at its head) that meet: each then knows
  /// what all knew and the meeting items themselves.
  void join_streams(const std::vector<std::tuple<int, int, std::uint32_t>>& streams);
  /// A step's access as an agent of the memory model; false (and lost_ set) when it races.
  bool step_access(int rank, int stream, const Work& work, const char* what,
                   const std::vector<std::tuple<DevAddr, std::uint64_t, bool>>& ranges);
  void forget_orders();
  void wrote(DevAddr address, std::uint64_t bytes) { machine_.notify_write(address, bytes); }
  std::string stream_waits() const;

  int world_;
  SimOptions options_;
  DeviceInfo info_;
  plan::DeviceLimits limits_;
  ptx::Machine machine_;
  std::shared_ptr<const ptx::Program> program_;
  std::vector<std::unique_ptr<std::uint8_t[]>> blocks_;
  std::vector<Rank> ranks_;
  std::vector<IssuedCollective> group_;
  bool in_group_ = false;
  std::map<int, std::vector<IssuedCollective>> groups_;  // pending groups by id
  std::map<int, int> group_arrived_;                    // ranks whose head is the group
  int next_group_ = 0;
  std::map<int, int> barrier_arrived_;                  // generation -> ranks at it
  std::uint64_t stall_jump_ns_ = 0;
  std::optional<SyncResult> lost_;  // after a fault the device stays failed, as a CUDA context
  std::string notes_;
  std::vector<std::string> warnings_;  // the memory model's warnings of every call, once per site
  std::vector<std::string> warning_sites_;
  int calls_ = 0;
  bool schedule_set_ = false;
};

}  // namespace pkb::harness
