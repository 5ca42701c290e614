// Machine: modules, launches, residency and the run loop (see machine.h). The warp quantum is in
// warp_runner.cpp, calls and exits in exec_call.cpp, waiting threads in machine_waits.cpp.
#include "harness/ptx/machine.h"

#include <algorithm>
#include "harness/ptx/lane_bits.h"
#include <cstring>

#include "harness/ptx/exec_state.h"
#include "harness/ptx/kernel_layout.h"

namespace pkb::ptx {
namespace {

// Shared memory starts filled with this byte (NaN in every float format), so a kernel that reads
// shared memory before writing it computes NaN, not the last block's leftovers.
constexpr std::uint8_t kSharedFill = 0xFF;
// The register file is allocated per warp in units of this many registers.
constexpr std::uint32_t kRegisterGranule = 8;
// Registers per thread assumed when the cubin does not say (residency only).
constexpr std::uint32_t kDefaultRegisters = 32;

}  // namespace

template <class T>
std::unique_ptr<T[]> Machine::take(Pool<T>& pool, std::size_t count) {
  auto& free = pool[count];
  if (free.empty()) return std::unique_ptr<T[]>(new T[count]);  // not value-initialized: no clearing
  std::unique_ptr<T[]> out = std::move(free.back());
  free.pop_back();
  return out;
}

Machine::Machine(int world, const GpuLimits& limits)
    : world_(world), limits_(limits), modules_(static_cast<std::size_t>(world)),
      gpus_(static_cast<std::size_t>(world)), run_queues_(static_cast<std::size_t>(world)) {
  for (auto& gpu : gpus_) gpu.sms.assign(static_cast<std::size_t>(limits.sms), Sm{});
}

Machine::~Machine() = default;

void Machine::set_schedule(const Schedule& schedule) {
  schedule_ = schedule;
  if (schedule_.rank_priority.empty())
    for (int rank = 0; rank < world_; ++rank) schedule_.rank_priority.push_back(rank);
  random_ = ScheduleRandom(schedule.seed);
}

void Machine::load_module(int rank, std::shared_ptr<const Program> program) {
  auto& slot = modules_.at(static_cast<std::size_t>(rank));
  slot.reset();  // its variables leave the memory map before the new ones enter it
  slot = std::make_unique<ModuleInstance>(rank, std::move(program), memory_);
}

const KernelLayout& Machine::layout_of(const Program& program, int function) {
  auto& cached = layouts_[{&program, function}];
  if (!cached) {
    cached = std::make_unique<KernelLayout>(make_kernel_layout(program, function));
    const auto found = registers_.find(program.functions[static_cast<std::size_t>(function)].name);
    cached->registers = found != registers_.end() ? found->second : kDefaultRegisters;
  }
  return *cached;
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

void Machine::validate_launch(int rank, const std::string& kernel, Dim3 grid, Dim3 block,
                              std::uint32_t dynamic_shared, bool cooperative,
                              const std::vector<std::string>& params) {
  ModuleInstance& module = *modules_.at(static_cast<std::size_t>(rank));
  const Program& program = module.program();
  const int function = program.find_function(kernel);
  if (function < 0 || !program.functions[static_cast<std::size_t>(function)].entry)
    throw LaunchRefused("CUDA_ERROR_NOT_FOUND: no kernel named " + kernel + " in the module");
  const Function& fn = program.functions[static_cast<std::size_t>(function)];
  if (params.size() != fn.params.size())
    throw LaunchRefused("CUDA_ERROR_INVALID_VALUE: " + kernel + " takes " + std::to_string(fn.params.size()) +
                        " parameters, the launch passed " + std::to_string(params.size()));
  for (std::size_t p = 0; p < params.size(); ++p) {
    const Symbol& symbol = program.symbols[static_cast<std::size_t>(fn.params[p])];
    if (params[p].size() != symbol.bytes)
      throw LaunchRefused("CUDA_ERROR_INVALID_VALUE: parameter " + std::to_string(p) + " of " + kernel +
                          " is " + std::to_string(symbol.bytes) + " bytes, the launch passed " +
                          std::to_string(params[p].size()));
  }
  if (block.count() == 0 || grid.count() == 0)
    throw LaunchRefused("CUDA_ERROR_INVALID_VALUE: a grid or block dimension is 0");
  if (block.count() > limits_.max_threads_per_block || (fn.reqntid && block.count() > fn.reqntid))
    throw LaunchRefused("CUDA_ERROR_INVALID_VALUE: " + std::to_string(block.count()) +
                        " threads per block is more than " + kernel + " allows");
  Launch probe;
  probe.block = block;
  probe.dynamic_shared = dynamic_shared;
  probe.layout = &layout_of(program, function);
  if (probe.shared_per_block() > limits_.shared_per_block)
    throw LaunchRefused("CUDA_ERROR_INVALID_VALUE: " + std::to_string(probe.shared_per_block()) +
                        " bytes of shared memory per block (at most " +
                        std::to_string(limits_.shared_per_block) + ")");
  const std::uint32_t per_sm = blocks_per_sm(probe);
  if (per_sm == 0)
    throw LaunchRefused("CUDA_ERROR_OUT_OF_RESOURCES: one block of " + kernel +
                        " needs more registers or shared memory than an SM has");
  if (cooperative && grid.count() > std::uint64_t{per_sm} * static_cast<std::uint64_t>(limits_.sms))
    throw LaunchRefused("CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: a cooperative grid of " +
                        std::to_string(grid.count()) + " blocks, but at most " +
                        std::to_string(per_sm * static_cast<std::uint64_t>(limits_.sms)) +
                        " can be resident at once (" + std::to_string(per_sm) + " per SM x " +
                        std::to_string(limits_.sms) + " SMs)");
}

std::uint64_t Machine::launch(int rank, const std::string& kernel, Dim3 grid, Dim3 block, Dim3 cluster,
                              std::uint32_t dynamic_shared, bool cooperative,
                              const std::vector<std::string>& params) {
  validate_launch(rank, kernel, grid, block, dynamic_shared, cooperative, params);
  ModuleInstance& module = *modules_.at(static_cast<std::size_t>(rank));
  const Program& program = module.program();
  const int function = program.find_function(kernel);
  auto launch = std::make_unique<Launch>();
  launch->id = next_launch_id_++;
  launch->rank = rank;
  launch->program = module.shared_program();
  launch->function = function;
  launch->grid = grid;
  launch->block = block;
  launch->cluster = cluster;
  launch->dynamic_shared = dynamic_shared;
  launch->cooperative = cooperative;
  launch->module = &module;
  launch->layout = &layout_of(program, function);
  launch->before = std::move(next_order_.before);
  launch->slot = next_order_.slot;
  launch->seq = next_order_.seq;
  next_order_ = LaunchOrder{};
  const Function& fn = program.functions[static_cast<std::size_t>(function)];
  launch->params.assign(fn.param_bytes, 0);
  for (std::size_t p = 0; p < params.size(); ++p) {
    const Symbol& symbol = program.symbols[static_cast<std::size_t>(fn.params[p])];
    std::memcpy(launch->params.data() + symbol.offset, params[p].data(), params[p].size());
  }
  Launch* raw = launch.get();
  launches_[raw->id] = std::move(launch);
  gpus_[static_cast<std::size_t>(rank)].waiting.push_back(raw);
  dispatch_blocks(rank);
  return raw->id;
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

void Machine::make_runnable(Warp* warp) {
  // The running warp is queued again, if it can still run, when its quantum ends.
  if (warp == running_ || warp->queued || warp->done || !warp->runnable()) return;
  warp->queued = true;
  const bool by_rank = schedule_.policy == SchedulePolicy::rank_order ||
                       schedule_.policy == SchedulePolicy::reverse_order;
  run_queues_[by_rank ? static_cast<std::size_t>(warp->block->launch->rank) : 0].push_back(warp);
}

Warp* Machine::pick_warp() {
  while (true) {
    std::deque<Warp*>* queue = nullptr;
    if (schedule_.policy == SchedulePolicy::rank_order || schedule_.policy == SchedulePolicy::reverse_order) {
      for (int rank : schedule_.rank_priority)
        if (!run_queues_[static_cast<std::size_t>(rank)].empty()) {
          queue = &run_queues_[static_cast<std::size_t>(rank)];
          break;
        }
    } else if (!run_queues_[0].empty()) {
      queue = &run_queues_[0];
    }
    if (!queue) return nullptr;
    Warp* warp;
    if (schedule_.policy == SchedulePolicy::random) {
      const std::size_t at = static_cast<std::size_t>(random_.below(queue->size()));
      std::swap((*queue)[at], queue->back());
      warp = queue->back();
      queue->pop_back();
    } else {
      warp = queue->front();
      queue->pop_front();
    }
    warp->queued = false;
    if (!warp->done && warp->runnable()) return warp;
  }
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

RunResult Machine::run(std::uint64_t lane_budget) {
  RunResult result;
  std::uint64_t budget = lane_budget;
  while (true) {
    if (fault_) {
      result.kind = RunResult::Kind::fault;
      result.fault = fault_;
      return result;
    }
    if (!finished_.empty()) {
      result.kind = RunResult::Kind::launches_done;
      result.finished.swap(finished_);
      return result;
    }
    if (budget == 0) {
      result.kind = RunResult::Kind::budget;
      return result;
    }
    wake_sleepers();
    Warp* warp = pick_warp();
    if (!warp) {
      result.kind = RunResult::Kind::idle;
      return result;
    }
    running_ = warp;
    run_warp(*warp, budget);
    running_ = nullptr;
    if (warp->done) {
      retire_finished_blocks();
    } else {
      make_runnable(warp);
    }
  }
}

std::string Machine::where(const Warp& warp, int lane, const Instr* instr) const {
  const Block& block = *warp.block;
  const Launch& launch = *block.launch;
  const std::uint64_t thread = static_cast<std::uint64_t>(warp.index) * 32 + static_cast<std::uint64_t>(lane);
  const std::uint64_t tx = thread % launch.block.x, ty = thread / launch.block.x % launch.block.y,
                      tz = thread / (std::uint64_t{launch.block.x} * launch.block.y);
  std::string text = "kernel " + launch.program->functions[static_cast<std::size_t>(launch.function)].name +
                     ", rank " + std::to_string(launch.rank) + ", block (" + std::to_string(block.index.x) +
                     "," + std::to_string(block.index.y) + "," + std::to_string(block.index.z) + "), thread (" +
                     std::to_string(tx) + "," + std::to_string(ty) + "," + std::to_string(tz) + ")";
  if (instr) {
    const std::string line = launch.program->source_line(*instr);
    text += ", `" + std::string(instr->text) + "` at " + (line.empty() ? "" : line + ", ") + "PTX line " +
            std::to_string(instr->line);
  }
  return text;
}

}  // namespace pkb::ptx
