// Residency: a launch's blocks onto the SMs of its rank's simulated GPU as threads, registers and
// shared memory allow (earlier launches first, as a GPU's block scheduler drains them), each block's
// warps made with pooled buffers, and finished blocks retired so waiting ones can start.
#include <algorithm>
#include <cstring>

#include "harness/ptx/machine.h"

namespace pkb::ptx {
namespace {

// Shared memory starts filled with this byte (NaN in every float format), so a kernel that reads
// shared memory before writing it computes NaN, not the last block's leftovers.
constexpr std::uint8_t kSharedFill = 0xFF;
// The register file is allocated per warp in units of this many registers.
constexpr std::uint32_t kRegisterGranule = 8;

}  // namespace

template <class T>
std::unique_ptr<T[]> Machine::take(Pool<T>& pool, std::size_t count) {
  auto& free = pool[count];
  if (free.empty()) return std::unique_ptr<T[]>(new T[count]);  // not value-initialized: no clearing
  std::unique_ptr<T[]> out = std::move(free.back());
  free.pop_back();
  return out;
}

std::uint32_t Machine::blocks_per_sm(const Launch& launch) const {
  const std::uint64_t threads = launch.block.count();
  const std::uint32_t warps = static_cast<std::uint32_t>((threads + 31) / 32);
  std::uint64_t fit = limits_.blocks_per_sm;
  fit = std::min<std::uint64_t>(fit, limits_.threads_per_sm / (warps * 32));
  const std::uint32_t regs = (launch.layout->registers + kRegisterGranule - 1) / kRegisterGranule *
                             kRegisterGranule;
  if (regs > 0) fit = std::min<std::uint64_t>(fit, limits_.registers_per_sm / (regs * warps * 32));
  const std::uint64_t shared = launch.shared_per_block();
  if (shared > 0) fit = std::min<std::uint64_t>(fit, limits_.shared_per_sm / shared);
  return static_cast<std::uint32_t>(fit);
}

bool Machine::fits(const Sm& sm, const Launch& launch) const {
  const std::uint32_t threads = static_cast<std::uint32_t>((launch.block.count() + 31) / 32 * 32);
  const std::uint32_t regs = (launch.layout->registers + kRegisterGranule - 1) / kRegisterGranule *
                             kRegisterGranule * threads;
  return sm.blocks + 1 <= limits_.blocks_per_sm && sm.threads + threads <= limits_.threads_per_sm &&
         sm.registers + regs <= limits_.registers_per_sm &&
         sm.shared + launch.shared_per_block() <= limits_.shared_per_sm;
}

// Blocks of earlier launches first, each in block order, onto the first SM with room: a GPU's
// block scheduler also drains launches in order.
void Machine::dispatch_blocks(int rank) {
  RankGpu& gpu = gpus_[static_cast<std::size_t>(rank)];
  while (!gpu.waiting.empty()) {
    Launch& launch = *gpu.waiting.front();
    bool placed = false;
    while (launch.next_block < launch.grid.count()) {
      int sm = -1;
      for (std::size_t candidate = 0; candidate < gpu.sms.size(); ++candidate)
        if (fits(gpu.sms[candidate], launch)) {
          sm = static_cast<int>(candidate);
          break;
        }
      if (sm < 0) break;
      start_block(launch, sm);
      placed = true;
    }
    if (launch.next_block < launch.grid.count()) return;  // the rest waits for room
    gpu.waiting.pop_front();
    (void)placed;
  }
}

void Machine::start_block(Launch& launch, int sm) {
  const KernelLayout& layout = *launch.layout;
  auto block = std::make_unique<Block>();
  block->launch = &launch;
  block->linear = launch.next_block++;
  block->index.x = static_cast<std::uint32_t>(block->linear % launch.grid.x);
  block->index.y = static_cast<std::uint32_t>(block->linear / launch.grid.x % launch.grid.y);
  block->index.z = static_cast<std::uint32_t>(block->linear / (std::uint64_t{launch.grid.x} * launch.grid.y));
  block->sm = sm;
  block->shared_bytes = launch.shared_per_block();
  block->shared = take(byte_pool_, block->shared_bytes + 16);
  std::memset(block->shared.get(), kSharedFill, block->shared_bytes + 16);
  block->threads = static_cast<std::uint32_t>(launch.block.count());
  block->live_threads = block->threads;
  Sm& used = gpus_[static_cast<std::size_t>(launch.rank)].sms[static_cast<std::size_t>(sm)];
  const std::uint32_t rounded = (block->threads + 31) / 32 * 32;
  used.blocks += 1;
  used.threads += rounded;
  used.registers += (layout.registers + kRegisterGranule - 1) / kRegisterGranule * kRegisterGranule * rounded;
  used.shared += block->shared_bytes;
  const std::uint32_t warps = rounded / 32;
  const Function& fn = launch.program->functions[static_cast<std::size_t>(launch.function)];
  mm::AgentPlace place;
  if (races_) {
    // A new block: its shared memory (maybe an earlier block's, pooled) holds nothing of this one.
    races_->forget(reinterpret_cast<std::uint64_t>(block->shared.get()), block->shared_bytes + 16);
    block->cta = races_->new_cta();
    place = {launch.rank, block->cta, block->cta, launch.slot, launch.seq};
    if (launch.cluster.count() > 1) {
      const std::uint64_t cluster = block->index.x / launch.cluster.x +
                                    std::uint64_t{block->index.y / launch.cluster.y} * 65536 +
                                    std::uint64_t{block->index.z / launch.cluster.z} * 65536 * 65536;
      auto [it, added] = clusters_.try_emplace({launch.id, cluster}, 0);
      if (added) it->second = races_->new_cta();
      place.cluster = it->second;
    }
  }
  for (std::uint32_t w = 0; w < warps; ++w) {
    auto warp = std::make_unique<Warp>();
    warp->block = block.get();
    warp->index = static_cast<int>(w);
    const std::uint32_t first = w * 32;
    const std::uint32_t count = std::min<std::uint32_t>(32, block->threads - first);
    warp->lanes = count == 32 ? 0xFFFFFFFFu : (1u << count) - 1;
    warp->id = next_warp_id_++;
    if (races_) {
      warp->agent = races_->add_agent(place, launch.before);
      sites_.push_back({launch.program, launch.function, block->index, launch.block, static_cast<int>(w), ""});
    }
    warp->regs = take(register_pool_, static_cast<std::size_t>(layout.reg_slots) * kWarpLanes);
    if (layout.frame_bytes > 0)
      warp->frames = take(byte_pool_, static_cast<std::size_t>(layout.frame_bytes) * kWarpLanes);
    warp->reg_slots = layout.reg_slots;
    warp->frame_stride = layout.frame_bytes;
    LaneGroup& group = warp->groups[0];
    group.mask = warp->lanes;
    group.pc = fn.first_pc;
    group.function = launch.function;
    warp->group_count = 1;
    warps_by_id_[warp->id] = warp.get();
    block->warps.push_back(std::move(warp));
  }
  Block* raw = block.get();
  blocks_.push_back(std::move(block));
  for (auto& warp : raw->warps) make_runnable(warp.get());
}

void Machine::retire_finished_blocks() {
  for (std::size_t b = 0; b < blocks_.size();) {
    Block* block = blocks_[b].get();
    if (block->warps_done < static_cast<int>(block->warps.size())) {
      ++b;
      continue;
    }
    Launch& launch = *block->launch;
    Sm& used = gpus_[static_cast<std::size_t>(launch.rank)].sms[static_cast<std::size_t>(block->sm)];
    const std::uint32_t rounded = (block->threads + 31) / 32 * 32;
    used.blocks -= 1;
    used.threads -= rounded;
    used.registers -= (launch.layout->registers + kRegisterGranule - 1) / kRegisterGranule *
                      kRegisterGranule * rounded;
    used.shared -= block->shared_bytes;
    const KernelLayout& layout = *launch.layout;
    for (auto& warp : block->warps) {
      warps_by_id_.erase(warp->id);
      // Buffers that recursion grew are freed, not pooled under a size no launch asks for.
      if (warp->reg_slots == layout.reg_slots)
        register_pool_[static_cast<std::size_t>(layout.reg_slots) * kWarpLanes].push_back(
            std::move(warp->regs));
      if (warp->frames && warp->frame_stride == layout.frame_bytes)
        byte_pool_[static_cast<std::size_t>(layout.frame_bytes) * kWarpLanes].push_back(std::move(warp->frames));
    }
    byte_pool_[block->shared_bytes + 16].push_back(std::move(block->shared));
    ++launch.blocks_done;
    const int rank = launch.rank;
    const bool finished = launch.finished();
    blocks_[b] = std::move(blocks_.back());
    blocks_.pop_back();
    if (finished) {
      finished_.push_back(launch.id);
      launches_.erase(launch.id);
    }
    dispatch_blocks(rank);
  }
}

}  // namespace pkb::ptx
