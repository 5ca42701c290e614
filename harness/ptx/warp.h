// The state of running threads: a warp is 32 lanes split into lane groups (lanes at one pc that
// move together), which is how independent thread scheduling is modelled: groups of one warp may
// be at different pcs and interleave until a warp-sync instruction makes them meet. A block holds
// its warps, its shared memory, its 16 named barriers and its bulk copies in flight; a launch holds
// one kernel call's blocks.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/ptx/memory_model/knowledge.h"
#include "harness/ptx/program.h"

namespace pkb::ptx {

constexpr int kWarpLanes = 32;
// A thread's call stack: calls nested deeper, or recursive calls whose frames (8 bytes a register
// plus the .local and .param bytes) take more than kMaxStackBytes, fault as a stack overflow.
constexpr int kMaxCallDepth = 1024;
constexpr std::int64_t kMaxStackBytes = 16 * 1024;
constexpr int kNamedBarriers = 16;

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t{x} * y * z; }
};

class ModuleInstance;
struct Launch;
struct Block;
struct Warp;

enum class GroupState : std::uint8_t {
  ready,
  held,       // an adversarial schedule holds these lanes back for `hold` more steps
  barrier,    // at bar.sync / barrier.sync with id `wait_id`
  warp_sync,  // at a warp-sync instruction, waiting for the lanes of `wait_mask`
  parked,     // spinning on memory nobody has written since: woken by a write or the clock
  sleeping,   // nanosleep until `wake_ns`
};

// A function already on the call stack gets its frames above the kernel's layout, at the end of the
// innermost such frame (exec_call.cpp); the others use the layout's.
struct CallFrame {
  std::int32_t return_pc;
  std::int32_t function;
  std::int32_t reg_frame;     // the caller's register frame (slot offset)
  std::int64_t frame_offset;  // the caller's per-thread frame offset
};

struct LaneGroup {
  std::uint32_t mask = 0;
  std::int32_t pc = 0;
  GroupState state = GroupState::ready;
  std::int32_t function = 0;     // the function the group is in
  std::int32_t reg_frame = 0;    // where that function's registers start (slots of 32 lanes)
  std::int64_t frame_offset = 0;  // where its per-thread frame starts (bytes)
  std::vector<CallFrame> calls;  // the callers' frames, innermost last (empty in the kernel)
  // Waiting.
  std::uint32_t wait_mask = 0;  // warp_sync: the lanes it waits for
  std::int32_t wait_id = 0;     // barrier id
  std::uint64_t wake_ns = 0;    // sleeping
  std::int32_t hold = 0;        // held: steps left
  // Spin detection: the last strong load this group ran and what it saw.
  std::int32_t spin_pc = -1;
  std::uint64_t spin_hash = 0;
  std::int32_t spin_count = 0;
  std::uint32_t steps = 0;  // instructions since it was last chosen (fairness between groups)

  bool same_stack(const LaneGroup& other) const;
};

/// A cp.async copy issued but not complete: its source was read at issue, its destination is
/// written when the lane waits for its group (cp.async.wait_group / wait_all) or exits.
struct PendingCopy {
  int lane = 0;
  std::uint32_t group = 0;  // the lane's commit count when it was issued
  std::uint8_t* dst = nullptr;
  std::uint8_t bytes = 0;
  std::uint8_t data[16] = {};
};

/// A cp.async.bulk (or cp.reduce.async.bulk) copy issued but not complete (exec_async_bulk.cpp).
/// Global to shared: the source was read at issue; shared memory is written and the mbarrier's
/// tx-count completed when a thread of the block waits on that mbarrier. Shared to global (a
/// bulk async-group of thread `warp`/`lane`): the source is read at wait_group.read and the
/// destination written at wait_group, both at the block's end at the latest.
struct BulkCopy {
  std::uint8_t* dst = nullptr;        // host memory (checked at issue)
  const std::uint8_t* src = nullptr;  // shared to global: the shared source, read late
  std::uint8_t* mbarrier = nullptr;   // global to shared: the barrier completed, else null
  std::vector<std::uint8_t> data;     // the bytes read
  std::uint32_t bytes = 0;
  int warp = 0, lane = 0;
  std::uint32_t group = 0;  // the thread's bulk commit count at issue
  bool read = false;
  std::int32_t reduce = -1;  // cp.reduce.async.bulk: the operation, else -1
  Type type = Type::none;    // its element type
};

struct Warp {
  Block* block = nullptr;
  int index = 0;                  // warp index in the block
  std::uint32_t lanes = 0;        // lanes that exist (a partial last warp has fewer)
  std::uint32_t exited = 0;
  // A lane is in at most one group, exited lanes in none. Slots are stable (a free slot has
  // mask 0), because parked groups are found again by slot when memory they watch changes.
  std::array<LaneGroup, kWarpLanes> groups{};
  int group_count = 0;
  std::unique_ptr<std::uint64_t[]> regs;   // regs[slot * 32 + lane]
  std::unique_ptr<std::uint8_t[]> frames;  // per-lane frames, lane * frame_stride
  std::int32_t reg_slots = 0;     // slots in regs: the layout's, more once recursion needs them
  std::int64_t frame_stride = 0;  // bytes of one lane's frame: likewise
  std::uint32_t carry = 0;        // the .cc carry flag, one bit per lane
  std::uint32_t hold_left = 0;    // steps until held groups may run again
  std::vector<PendingCopy> async_copies;
  std::array<std::uint32_t, kWarpLanes> async_commits{};  // cp.async.commit_group count per lane
  std::array<std::uint32_t, kWarpLanes>
      bulk_commits{};             // cp.async.bulk.commit_group count per lane
  bool queued = false;            // in the scheduler's run queue
  bool done = false;
  std::uint64_t id = 0;           // creation order (deterministic tie-breaks)
  std::uint32_t agent = 0;        // the memory model's agent (0 under `sc`)

  std::uint32_t live() const { return lanes & ~exited; }
  /// Whether some group can run now.
  bool runnable() const {
    for (const auto& group : groups)
      if (group.mask != 0 && (group.state == GroupState::ready || group.state == GroupState::held)) return true;
    return false;
  }
};

struct NamedBarrier {
  std::uint32_t arrived = 0;   // threads arrived in this generation
  std::uint32_t expected = 0;  // the count of its bar instruction (0: every live thread)
  std::uint32_t popc = 0;      // bar.red accumulators
  bool all = true, any = false;
  bool active = false;
};

struct Block {
  Launch* launch = nullptr;
  Dim3 index;
  std::uint64_t linear = 0;
  int sm = 0;
  std::unique_ptr<std::uint8_t[]> shared;
  std::uint64_t shared_bytes = 0;
  std::array<NamedBarrier, kNamedBarriers> barriers{};
  std::vector<BulkCopy> bulk_copies;  // in issue order
  std::vector<std::unique_ptr<Warp>> warps;
  std::uint32_t threads = 0;
  std::uint32_t live_threads = 0;
  int warps_done = 0;
  std::uint32_t cta = 0;  // the memory model's id of this block in the call (0 under `sc`)
};

/// Where a kernel's functions keep their registers and per-thread frames for one launch: the
/// kernel first, then each function it may call, once (a recursive call's frames go above these).
struct KernelLayout {
  std::vector<std::int32_t> reg_frame;       // per function (-1: not reachable)
  std::vector<std::int64_t> frame_offset;    // per function (-1: not reachable)
  std::int32_t reg_slots = 0;                // registers per lane
  std::int64_t frame_bytes = 0;              // per thread
  std::vector<std::int64_t> shared_offset;   // per symbol (-1: not a shared variable it uses)
  std::uint64_t static_shared = 0;           // bytes of its .shared variables
  std::uint32_t registers = 0;               // hardware registers per thread (for residency)
};

struct Launch {
  std::uint64_t id = 0;
  int rank = 0;
  std::shared_ptr<const Program> program;
  int function = 0;
  Dim3 grid, block, cluster;
  std::uint32_t dynamic_shared = 0;
  bool cooperative = false;
  std::vector<std::uint8_t> params;
  ModuleInstance* module = nullptr;
  const KernelLayout* layout = nullptr;
  std::uint64_t next_block = 0;  // the next block to make resident
  std::uint64_t blocks_done = 0;
  std::shared_ptr<const mm::Knowledge> before;  // the memory model: what precedes it
  std::uint32_t slot = 0, seq = 0;              // its stream work item
  std::uint64_t shared_per_block() const { return layout->static_shared + dynamic_shared; }
  bool finished() const { return blocks_done == grid.count(); }
};

}  // namespace pkb::ptx
