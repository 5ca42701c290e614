// The simulated node: W GPUs' worth of SMs running kernel launches on one host thread. A launch's
// blocks become resident as the SMs' threads, registers and shared memory allow (a grid larger
// than the device runs in waves, so a kernel that needs more co-resident blocks than fit hangs as
// it would on a GPU); the warps of every resident block of every rank interleave under the
// schedule. Time is virtual: %globaltimer advances with executed instructions and jumps when
// every thread waits, so spin timeouts trap deterministically. The caller (harness/sim) owns
// streams; run() returns whenever a launch finishes, nothing can run, or a thread faults.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "harness/ptx/memory_map.h"
#include "harness/ptx/memory_model/race_detector.h"
#include "harness/ptx/module_instance.h"
#include "harness/ptx/schedule.h"
#include "harness/ptx/warp.h"
#include "src/common/error.h"

namespace pkb::ptx {

struct ExecState;

/// What one simulated GPU holds (an H100/H200 SM, and the SMs a rank may use).
struct GpuLimits {
  int sms = 16;
  std::uint32_t threads_per_sm = 2048;
  std::uint32_t blocks_per_sm = 32;
  std::uint64_t shared_per_sm = 233472;     // 228 KiB
  std::uint64_t shared_per_block = 232448;  // 227 KiB
  std::uint32_t registers_per_sm = 65536;
  std::uint32_t max_threads_per_block = 1024;
};

/// Why the simulation stopped a sample: a thread's fault (the message names kernel, rank, block,
/// thread, instruction and source line), an instruction pkb does not implement, or a hang.
struct Fault {
  // race: a thread touched the memory of a rank whose call had ended (memory_map.h): a wrong
  // answer under the ABI, though nothing crashed.
  enum class Kind { memory, trap, warp_sync, unsupported, launch, deadlock, budget, race };
  Kind kind = Kind::memory;
  int rank = 0;
  std::string message;
};

/// Thrown by handlers for the lane that faulted; the machine adds where it happened (unless the
/// message already names it: `located`).
struct LaneFault {
  int lane;
  Fault::Kind kind;
  std::string message;
  bool located = false;
};

/// How the simulated node judges memory ordering: `sc` runs every access in one sequentially
/// consistent order and checks nothing more; `ptx` also checks every access against the PTX
/// memory model (memory_model/README.md): a data race ends the call (Fault::Kind::race) or,
/// where only the reader's acquire is missing, is kept as a warning.
enum class MemoryModel : std::uint8_t { sc, ptx };

/// A race the memory model found in this call, as a one-line message naming both accesses.
struct RaceFinding {
  bool warning = false;
  std::string message;
  std::string site;  // the two instructions ("pc:pc"): one race found in several calls or ranks is one
};

/// What precedes a launch (the simulated device's streams, events, barriers and collectives),
/// and which stream work item it is (memory_model/race_detector.h's AgentPlace).
struct LaunchOrder {
  std::shared_ptr<const mm::Knowledge> before;
  std::uint32_t slot = 0;
  std::uint32_t seq = 0;
};

/// A launch the driver would refuse (a cooperative grid that cannot be resident, too many
/// resources per block); the message starts with the CUDA error's name.
class LaunchRefused : public Error {
 public:
  using Error::Error;
};

struct RunResult {
  enum class Kind { launches_done, idle, fault, budget };
  Kind kind = Kind::idle;
  std::vector<std::uint64_t> finished;  // launch ids
  std::optional<Fault> fault;
};

/// Counters of one run, for the result and the benchmark.
struct MachineStats {
  std::uint64_t lane_instructions = 0;
  std::uint64_t warp_instructions = 0;
  std::uint64_t clock_jumps = 0;
};

class Machine {
 public:
  Machine(int world, const GpuLimits& limits);
  ~Machine();

  int world() const { return world_; }
  const GpuLimits& limits() const { return limits_; }
  MemoryMap& memory() { return memory_; }
  const MemoryMap& memory() const { return memory_; }
  void set_schedule(const Schedule& schedule);

  /// Loads `program` on `rank` (its module variables are allocated and initialised; a reload
  /// initialises them again).
  void load_module(int rank, std::shared_ptr<const Program> program);
  ModuleInstance& module(int rank) { return *modules_.at(static_cast<std::size_t>(rank)); }

  /// Checks a launch as the driver does before queueing it (launch() checks again). Throws
  /// LaunchRefused: an unknown kernel, wrong parameter sizes, too many threads or too much shared
  /// memory per block, or a cooperative grid that cannot be resident at once.
  void validate_launch(int rank, const std::string& kernel, Dim3 grid, Dim3 block,
                       std::uint32_t dynamic_shared, bool cooperative,
                       const std::vector<std::string>& params);
  /// Queues a kernel launch; blocks become resident as they fit. Throws LaunchRefused (a
  /// cooperative grid that cannot be resident, too many resources) as the driver refuses it.
  std::uint64_t launch(int rank, const std::string& kernel, Dim3 grid, Dim3 block, Dim3 cluster,
                       std::uint32_t dynamic_shared, bool cooperative,
                       const std::vector<std::string>& params);

  /// Runs until a launch finishes, nothing can run, a fault, or `lane_budget` lane-instructions.
  RunResult run(std::uint64_t lane_budget);
  bool busy() const { return !launches_.empty(); }

  // Time.
  std::uint64_t now_ns() const { return clock_ns_; }
  /// Jumps the clock (when every thread waits) and wakes parked and sleeping groups whose wait
  /// may depend on time.
  void advance_clock(std::uint64_t ns);
  /// Sleepers' earliest wake-up, when any group sleeps.
  std::optional<std::uint64_t> next_wake() const;
  bool has_parked() const { return parked_ > 0; }
  /// Where every waiting thread waits, for a deadlock message ("rank 0 block 0 warp 1: bar.sync 0
  /// at kernel.cu:12"). At most `limit` lines.
  std::string describe_waits(int limit) const;
  /// The first warp-sync wait that can never end (a lane it names waits elsewhere), if any.
  std::optional<Fault> stuck_warp_sync() const;

  /// A write by the device (memset, copy, collective) or the host: wakes spinners watching it.
  void notify_write(std::uint64_t address, std::uint64_t bytes) {
    if (!watches_.empty()) wake_watchers(address, bytes);
  }

  /// The first undefined value a thread read (a shuffle from an exited lane), for the message of
  /// a wrong answer; "" when none.
  const std::string& undefined_note() const { return undefined_note_; }
  void note_undefined(std::string note) {
    if (undefined_note_.empty()) undefined_note_ = std::move(note);
  }
  void clear_undefined_note() { undefined_note_.clear(); }

  const MachineStats& stats() const { return stats_; }

  // The memory model (memory_model/). `fault_on_race` false keeps error-class races as findings
  // and lets the run go on (the litmus tests collect outcomes that way).
  void set_memory_model(MemoryModel model, bool fault_on_race = true);
  MemoryModel memory_model() const { return races_ ? MemoryModel::ptx : MemoryModel::sc; }
  /// A new call: what the memory model remembers of earlier calls is forgotten (the harness has
  /// written inputs and fills since, and reads outputs only after a call ends).
  void begin_call();
  const std::vector<RaceFinding>& race_findings() const { return race_findings_; }
  /// What precedes the next launch() (its warps start knowing it).
  void set_launch_order(LaunchOrder order) { next_order_ = std::move(order); }
  /// What a finished launch's warps knew at their end (null under `sc`), for its stream.
  std::shared_ptr<mm::Knowledge> take_launch_knowledge(std::uint64_t launch);
  /// A plan step (memset, copy, gemm, collective, fill) as an agent touching memory: `what` names it.
  std::uint32_t add_step_agent(const LaunchOrder& order, int rank, const std::string& what);
  /// A step agent's access of [address, address + bytes); false when it raced with an error-class
  /// race and fault_on_race (the message is the last of race_findings()).
  bool step_access(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes, bool write);
  mm::RaceDetector* races() { return races_.get(); }
  /// A finding of the detector, for lane `lane` of the running warp: kept as a message; an error
  /// ends the run (LaneFault, or the fault of a step) when fault_on_race.
  void report_race(const mm::Finding& finding, int lane);

  // Used by the execution core (exec_*.cpp).
  void watch(LaneGroup* group, Warp* warp, const std::vector<std::uint64_t>& words);
  void set_registers(const std::string& kernel, std::uint32_t registers) { registers_[kernel] = registers; }
  void wake_watchers(std::uint64_t address, std::uint64_t bytes);
  void make_runnable(Warp* warp);
  std::string where(const Warp& warp, int lane, const Instr* instr) const;

 private:
  struct Sm {
    std::uint32_t threads = 0, blocks = 0, registers = 0;
    std::uint64_t shared = 0;
  };
  struct RankGpu {
    std::vector<Sm> sms;
    std::deque<Launch*> waiting;  // launches with blocks not yet resident, in launch order
  };
  struct Sleeper {
    std::uint64_t wake_ns;
    std::uint64_t warp;
    int slot;
  };

  const KernelLayout& layout_of(const Program& program, int function);
  void dispatch_blocks(int rank);
  bool fits(const Sm& sm, const Launch& launch) const;
  std::uint32_t blocks_per_sm(const Launch& launch) const;
  void start_block(Launch& launch, int sm);
  void retire_finished_blocks();
  Warp* pick_warp();
  void run_warp(Warp& warp, std::uint64_t& budget);
  void unpark_all();
  void wake_sleepers();
  // Calls and exits (exec_call.cpp).
  void enter_call(ExecState& s, LaneGroup& group, const Instr& call);
  void leave_call(ExecState& s, LaneGroup& group);
  void exit_lanes(Warp& warp, LaneGroup& group);

  // Buffers of retired warps and blocks, reused by later ones without clearing (registers and
  // local memory start with stale but deterministic bytes, as a GPU's do; shared memory is filled).
  template <class T>
  using Pool = std::map<std::size_t, std::vector<std::unique_ptr<T[]>>>;
  template <class T>
  static std::unique_ptr<T[]> take(Pool<T>& pool, std::size_t count);
  Pool<std::uint64_t> register_pool_;
  Pool<std::uint8_t> byte_pool_;

  int world_;
  GpuLimits limits_;
  MemoryMap memory_;
  Schedule schedule_;
  ScheduleRandom random_{1};
  std::vector<std::unique_ptr<ModuleInstance>> modules_;
  std::vector<RankGpu> gpus_;
  std::map<std::uint64_t, std::unique_ptr<Launch>> launches_;
  std::vector<std::unique_ptr<Block>> blocks_;  // resident
  std::vector<std::deque<Warp*>> run_queues_;   // per rank (fair and random use rank 0's)
  std::vector<std::uint64_t> finished_;
  std::map<std::pair<const Program*, int>, std::unique_ptr<KernelLayout>> layouts_;
  // Parked groups by the 4-byte words they read: (warp id, group slot). Entries may be stale (the
  // group moved on, the warp finished): a wake checks, and a wake too many only costs a re-check.
  std::unordered_map<std::uint64_t, std::vector<std::pair<std::uint64_t, int>>> watches_;
  std::unordered_map<std::uint64_t, Warp*> warps_by_id_;
  std::vector<Sleeper> sleepers_;
  int stalled_jumps_ = 0;  // clock jumps in a row without a wake by a write
  int parked_ = 0;
  int sleeping_ = 0;
  std::uint64_t clock_ns_ = 0;
  std::uint64_t next_launch_id_ = 1;
  std::uint64_t next_warp_id_ = 0;
  std::string undefined_note_;
  MachineStats stats_;
  std::optional<Fault> fault_;
  Warp* running_ = nullptr;  // the warp whose quantum is running
  // The memory model: null under `sc`. sites_ names each agent for messages (by agent id).
  struct AgentSite {
    std::shared_ptr<const Program> program;
    int function = 0;
    Dim3 block, block_dim;
    int warp = 0;
    std::string step;  // a plan step's name; empty for a warp
  };
  std::string describe_access(const mm::Stamp& stamp) const;
  std::string describe_race(const mm::Finding& finding) const;
  std::unique_ptr<mm::RaceDetector> races_;
  bool fault_on_race_ = true;
  std::vector<AgentSite> sites_;
  std::vector<RaceFinding> race_findings_;
  LaunchOrder next_order_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint32_t> clusters_;  // (launch, cluster) -> id
  std::map<std::string, std::uint32_t> registers_;  // per kernel, from the cubin
};

}  // namespace pkb::ptx
