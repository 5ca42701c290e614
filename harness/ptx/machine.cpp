// Machine: modules, launches and the run loop (see machine.h). Residency (blocks onto SMs) is in
// machine_blocks.cpp, the warp quantum in warp_runner.cpp, calls and exits in exec_call.cpp,
// waiting threads in machine_waits.cpp, the memory model's side in machine_races.cpp.
#include "harness/ptx/machine.h"

#include <algorithm>
#include "harness/ptx/lane_bits.h"
#include <cstring>

#include "harness/ptx/exec_state.h"
#include "harness/ptx/kernel_layout.h"

namespace pkb::ptx {
namespace {

// Registers per thread assumed when the cubin does not say (residency only).
constexpr std::uint32_t kDefaultRegisters = 32;

}  // namespace

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
