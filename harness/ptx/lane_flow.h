// The instructions that decide which lanes wait: a block's named barriers (exec_barrier.cpp) and
// the warp-sync rendezvous (exec_warp_sync.cpp). The warp runner calls them; each returns whether
// the arriving group may go on at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "harness/ptx/exec_state.h"

namespace pkb::ptx {

/// Lane groups of a warp.
LaneGroup& split_group(Warp& warp, LaneGroup& group, std::uint32_t lanes);
void free_group(Warp& warp, LaneGroup& group);
/// Merges every ready group at `group`'s pc with the same call stack into `group`.
void merge_at_pc(Warp& warp, LaneGroup& group);
/// brx.idx for the lanes of `mask` (warp_runner.cpp).
void branch_table(ExecState& s, Warp& warp, LaneGroup& group, const Instr& in, std::uint32_t mask);

/// cp.async copies still pending for `lanes` land now (they exit, exec_async.cpp).
void complete_async_copies(ExecState& s, std::uint32_t lanes);
/// The block's bulk copies still in flight land now (its last thread exited, exec_async_bulk.cpp).
void finish_bulk_copies(ExecState& s);

/// bar.sync / bar.arrive / bar.red / barrier.*: counts the lanes of `mask` in. True when the
/// group goes on (bar.arrive, or the barrier completed with this arrival).
bool arrive_barrier(ExecState& s, LaneGroup& group, const Instr& instr, std::uint32_t mask);
/// After threads of the block exited: a barrier waiting for every live thread may be complete.
void recheck_barriers(Machine& machine, Block& block);

/// shfl.sync, vote.sync, match.sync, redux.sync, bar.warp.sync: the group waits until every live
/// lane of its member mask has arrived at a matching instruction, then all of them execute it
/// together. True when the group goes on now.
bool arrive_warp_sync(ExecState& s, LaneGroup& group, const Instr& instr, std::uint32_t mask);
/// After lanes of the warp exited: a rendezvous that only waited for them completes.
void recheck_warp_sync(Machine& machine, Warp& warp);
/// A rendezvous whose missing lanes wait somewhere they cannot leave without it.
std::optional<Fault> warp_sync_deadlock(const Machine& machine, const Warp& warp);

}  // namespace pkb::ptx
