// SimDevice: memory, the module, and the work a plan issues, queued on its stream (see
// sim_device.h). synchronize() and the queues are in sim_device_run.cpp.
#include "harness/sim/sim_device.h"

#include <cstring>

#include "harness/executor/device_error.h"
#include "harness/ptx/program.h"
#include "harness/ptx/ptx_error.h"
#include "harness/sim/cubin_registers.h"
#include "harness/sim/sim_limits.h"

namespace pkb::harness {
namespace {

constexpr std::uint64_t kAlignment = 256;  // the Device contract
// What the node describes itself as (DeviceInfo); an H200's L2, for the input-set rule.
constexpr std::uint64_t kL2Bytes = 50ull << 20;

// The error code a refused launch carries: CUDA's own for the ones it names (none is sticky).
int launch_error_code(const std::string& message) {
  if (message.rfind("CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", 0) == 0) return 720;
  if (message.rfind("CUDA_ERROR_OUT_OF_RESOURCES", 0) == 0) return 701;
  if (message.rfind("CUDA_ERROR_NOT_FOUND", 0) == 0) return 500;
  return 1;  // CUDA_ERROR_INVALID_VALUE
}

}  // namespace

SimDevice::SimDevice(const SimOptions& options)
    : world_(options.world), options_(options),
      machine_(options.world, [&] {
        ptx::GpuLimits limits;
        limits.sms = options.sms > 0 ? options.sms : simulated_sms(options.world);
        return limits;
      }()),
      ranks_(static_cast<std::size_t>(options.world)) {
  info_.names.assign(static_cast<std::size_t>(world_), "simulated node (pkb)");
  info_.simulated = true;
  info_.sms_per_rank = options.sms > 0 ? options.sms : simulated_sms(world_);
  info_.multicast = true;
  info_.arch = "sm_90a";
  info_.l2_bytes = kL2Bytes;
  info_.hbm_bytes_per_s = 0;
  limits_.num_sms = info_.sms_per_rank;
  limits_.multicast = true;
  limits_.memory_cap_bytes = kSimulatedMemoryPerRank;
  ptx::Schedule fair;
  machine_.set_schedule(fair);
  machine_.set_memory_model(options.memory_model);
}

SimDevice::~SimDevice() = default;

void SimDevice::load_module(const std::string& cubin, const std::string& ptx_text) {
  try {
    program_ = ptx::load_program(ptx_text);
  } catch (const ptx::ParseError& error) {
    // NVRTC wrote it, so this is a gap in pkb's parser: no verdict, and the reason says so.
    throw DeviceError(std::string("the simulated node cannot read this PTX: ") + error.what(), 0);
  }
  for (const auto& [kernel, registers] : cubin_registers(cubin)) machine_.set_registers(kernel, registers);
  reload_module();
}

void SimDevice::reload_module() {
  for (int rank = 0; rank < world_; ++rank) machine_.load_module(rank, program_);
}

DevAddr SimDevice::allocate(int rank, std::uint64_t bytes, const std::string& name) {
  blocks_.push_back(std::make_unique<std::uint8_t[]>(bytes + kAlignment));
  const auto raw = reinterpret_cast<std::uint64_t>(blocks_.back().get());
  const DevAddr at = (raw + kAlignment - 1) / kAlignment * kAlignment;
  machine_.memory().add(at, bytes, rank, name);
  return at;
}

SymmetricAlloc SimDevice::alloc_symmetric(std::uint64_t bytes_per_rank) {
  SymmetricAlloc alloc;
  alloc.bytes = bytes_per_rank;
  for (int rank = 0; rank < world_; ++rank) alloc.addr.push_back(allocate(rank, bytes_per_rank, "a buffer"));
  return alloc;
}

SymmetricAlloc SimDevice::alloc_multicast(std::uint64_t bytes_per_rank) {
  SymmetricAlloc alloc = alloc_symmetric(bytes_per_rank);
  const int object = machine_.memory().add_multicast(alloc.addr, bytes_per_rank);
  alloc.multicast_addr = ptx::kMulticastTag | static_cast<std::uint64_t>(object) << ptx::kMulticastObjectShift;
  return alloc;
}

DevAddr SimDevice::alloc_local(int rank, std::uint64_t bytes) { return allocate(rank, bytes, "a local buffer"); }

void SimDevice::name_memory(DevAddr address, const std::string& name) { machine_.memory().name(address, name); }

void SimDevice::write(int, DevAddr dst, const void* src, std::uint64_t bytes) {
  std::memcpy(reinterpret_cast<void*>(dst), src, bytes);
  wrote(dst, bytes);
}

void SimDevice::read(int, DevAddr src, void* dst, std::uint64_t bytes) {
  std::memcpy(dst, reinterpret_cast<const void*>(src), bytes);
}

void SimDevice::launch(int rank, int stream, const KernelLaunch& launch) {
  // Refused as the driver refuses it: when the launch is made, not when it would run.
  try {
    machine_.validate_launch(rank, launch.kernel, {launch.grid.x, launch.grid.y, launch.grid.z},
                             {launch.block.x, launch.block.y, launch.block.z}, launch.shared_bytes,
                             launch.cooperative, launch.params);
  } catch (const ptx::LaunchRefused& refused) {
    throw DeviceError(std::string("launch of ") + launch.kernel + ": " + refused.what(),
                      launch_error_code(refused.what()));
  }
  Work work;
  work.kind = Work::Kind::launch;
  work.kernel = launch;
  push(rank, stream, std::move(work));
}

void SimDevice::memset(int rank, int stream, DevAddr dst, std::uint8_t value, std::uint64_t bytes) {
  Work work;
  work.kind = Work::Kind::memset;
  work.dst = dst;
  work.value = value;
  work.bytes = bytes;
  push(rank, stream, std::move(work));
}

void SimDevice::copy(int rank, int stream, DevAddr dst, DevAddr src, std::uint64_t bytes) {
  Work work;
  work.kind = Work::Kind::copy;
  work.dst = dst;
  work.src = src;
  work.bytes = bytes;
  push(rank, stream, std::move(work));
}

void SimDevice::fill(int rank, DevAddr dst, const FillPattern& pattern, std::uint64_t bytes) {
  Work work;
  work.kind = Work::Kind::fill;
  work.dst = dst;
  work.pattern = pattern;
  work.bytes = bytes;
  push(rank, 0, std::move(work));
}

void SimDevice::gemm(int rank, int stream, const GemmCall& call) {
  Work work;
  work.kind = Work::Kind::gemm;
  work.gemm = call;
  push(rank, stream, std::move(work));
}

void SimDevice::group_begin() {
  group_.clear();
  in_group_ = true;
}

void SimDevice::collective(int rank, int stream, const CollectiveCall& call) {
  if (!in_group_) {  // a lone call is a group of one call per rank issued so far
    group_begin();
    collective(rank, stream, call);
    return;
  }
  group_.push_back({rank, stream, call});
}

// Each communicator's part of the group completes once its own calls arrived (an instance of a
// process group does not wait for the others, as on NCCL).
void SimDevice::group_end() {
  in_group_ = false;
  for (auto& part : split_by_communicator(group_)) {
    const int id = next_group_++;
    for (const auto& issued : part) {
      Work work;
      work.kind = Work::Kind::collective;
      work.group = id;
      push(issued.rank, issued.stream, std::move(work));
    }
    groups_[id] = std::move(part);
  }
  group_.clear();
}

void SimDevice::barrier(int rank, int stream) {
  Work work;
  work.kind = Work::Kind::barrier;
  work.group = ranks_[static_cast<std::size_t>(rank)].barriers_issued++;
  push(rank, stream, std::move(work));
}

void SimDevice::delay(int rank, int stream, std::uint64_t ns) {
  Work work;
  work.kind = Work::Kind::delay;
  work.ns = ns;
  push(rank, stream, std::move(work));
}

void SimDevice::record(int rank, int stream, int event) {
  Work work;
  work.kind = Work::Kind::record;
  work.event = event;
  work.sequence = ++ranks_[static_cast<std::size_t>(rank)].events[event].issued;
  push(rank, stream, std::move(work));
}

void SimDevice::wait(int rank, int stream, int event) {
  Work work;
  work.kind = Work::Kind::wait;
  work.event = event;
  work.sequence = ranks_[static_cast<std::size_t>(rank)].events[event].issued;
  push(rank, stream, std::move(work));
}

double SimDevice::elapsed_ms(int rank, int start_event, int end_event) {
  auto& events = ranks_[static_cast<std::size_t>(rank)].events;
  return static_cast<double>(events[end_event].at_ns - events[start_event].at_ns) / 1e6;
}

std::string SimDevice::schedule_trial(int trial, std::uint64_t seed) {
  const ptx::Schedule schedule = ptx::trial_schedule(trial, world_, seed ^ options_.schedule_seed);
  machine_.set_schedule(schedule);
  std::string name = ptx::schedule_name(schedule.policy);
  if (schedule.policy == ptx::SchedulePolicy::rank_order || schedule.policy == ptx::SchedulePolicy::reverse_order) {
    name += " (";
    for (std::size_t i = 0; i < schedule.rank_priority.size(); ++i)
      name += (i ? "," : "") + std::to_string(schedule.rank_priority[i]);
    name += ")";
  }
  return "simulated, " + name;
}

std::optional<SimulationSummary> SimDevice::simulation() const {
  SimulationSummary summary;
  summary.schedule_seed = options_.schedule_seed;
  summary.lane_instructions = machine_.stats().lane_instructions;
  summary.calls = calls_;
  summary.memory_model = machine_.memory_model() == ptx::MemoryModel::ptx ? "ptx" : "sc";
  summary.warnings = warnings_;
  return summary;
}

std::deque<SimDevice::Work>& SimDevice::stream(int rank, int index) {
  auto& streams = ranks_[static_cast<std::size_t>(rank)].streams;
  if (static_cast<int>(streams.size()) <= index) streams.resize(static_cast<std::size_t>(index) + 1);
  return streams[static_cast<std::size_t>(index)];
}

void SimDevice::push(int rank, int index, Work work) {
  auto& issued = ranks_[static_cast<std::size_t>(rank)].issued;
  if (issued.size() <= static_cast<std::size_t>(index)) issued.resize(static_cast<std::size_t>(index) + 1, 0);
  work.order = ++issued[static_cast<std::size_t>(index)];
  stream(rank, index).push_back(std::move(work));
}

}  // namespace pkb::harness
