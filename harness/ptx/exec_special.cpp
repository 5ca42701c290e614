// Special registers: thread, block and grid indices, lane masks, the SM a block runs on, clusters
// (a launch without clusters is one block per cluster), shared memory sizes, and the clocks.
// %globaltimer is the machine's virtual nanosecond clock (it advances with instructions executed
// and jumps when every thread waits), so time-outs in kernels fire at the same point every run.
#include "harness/ptx/exec_state.h"

namespace pkb::ptx {
namespace {

// %globaltimer starts here, so a kernel subtracting an earlier reading never sees 0 as a start.
constexpr std::uint64_t kTimerEpochNs = 1'000'000'000;
// %clock runs at this many cycles per nanosecond (an H200's boost clock is about 1.98 GHz).
constexpr std::uint64_t kCyclesPerNs = 2;

std::uint32_t component(const Dim3& d, int axis) { return axis == 0 ? d.x : axis == 1 ? d.y : d.z; }

}  // namespace

std::uint64_t special_register(ExecState& s, SReg sreg, int lane) {
  const Launch& launch = s.launch;
  const Block& block = s.block;
  const std::uint64_t thread = static_cast<std::uint64_t>(s.warp.index) * kWarpLanes + static_cast<std::uint64_t>(lane);
  const Dim3 cluster = launch.cluster.count() > 1 ? launch.cluster : Dim3{1, 1, 1};
  switch (sreg) {
    case SReg::tid_x: return thread % launch.block.x;
    case SReg::tid_y: return thread / launch.block.x % launch.block.y;
    case SReg::tid_z: return thread / (std::uint64_t{launch.block.x} * launch.block.y);
    case SReg::ntid_x: return launch.block.x;
    case SReg::ntid_y: return launch.block.y;
    case SReg::ntid_z: return launch.block.z;
    case SReg::ctaid_x: return block.index.x;
    case SReg::ctaid_y: return block.index.y;
    case SReg::ctaid_z: return block.index.z;
    case SReg::nctaid_x: return launch.grid.x;
    case SReg::nctaid_y: return launch.grid.y;
    case SReg::nctaid_z: return launch.grid.z;
    case SReg::laneid: return static_cast<std::uint64_t>(lane);
    case SReg::warpid: return static_cast<std::uint64_t>(s.warp.index);
    case SReg::nwarpid: return 64;
    case SReg::smid: return static_cast<std::uint64_t>(block.sm);
    case SReg::nsmid: return static_cast<std::uint64_t>(s.machine.limits().sms);
    case SReg::gridid: return launch.id;
    case SReg::lanemask_eq: return 1ull << lane;
    case SReg::lanemask_le: return lane == 31 ? 0xFFFFFFFFull : (2ull << lane) - 1;
    case SReg::lanemask_lt: return (1ull << lane) - 1;
    case SReg::lanemask_ge: return 0xFFFFFFFFull & ~((1ull << lane) - 1);
    case SReg::lanemask_gt: return 0xFFFFFFFFull & ~(lane == 31 ? 0xFFFFFFFFull : (2ull << lane) - 1);
    case SReg::clock: return static_cast<std::uint32_t>(s.machine.now_ns() * kCyclesPerNs);
    case SReg::clock_hi: return static_cast<std::uint32_t>((s.machine.now_ns() * kCyclesPerNs) >> 32);
    case SReg::clock64: return s.machine.now_ns() * kCyclesPerNs;
    case SReg::globaltimer: return kTimerEpochNs + s.machine.now_ns();
    case SReg::globaltimer_lo: return static_cast<std::uint32_t>(kTimerEpochNs + s.machine.now_ns());
    case SReg::globaltimer_hi: return static_cast<std::uint32_t>((kTimerEpochNs + s.machine.now_ns()) >> 32);
    case SReg::dynamic_smem_size: return launch.dynamic_shared;
    case SReg::total_smem_size: return launch.shared_per_block();
    case SReg::clusterid_x: case SReg::clusterid_y: case SReg::clusterid_z: {
      const int axis = static_cast<int>(sreg) - static_cast<int>(SReg::clusterid_x);
      return component(block.index, axis) / component(cluster, axis);
    }
    case SReg::nclusterid_x: case SReg::nclusterid_y: case SReg::nclusterid_z: {
      const int axis = static_cast<int>(sreg) - static_cast<int>(SReg::nclusterid_x);
      return component(launch.grid, axis) / component(cluster, axis);
    }
    case SReg::cluster_ctaid_x: case SReg::cluster_ctaid_y: case SReg::cluster_ctaid_z: {
      const int axis = static_cast<int>(sreg) - static_cast<int>(SReg::cluster_ctaid_x);
      return component(block.index, axis) % component(cluster, axis);
    }
    case SReg::cluster_nctaid_x: return cluster.x;
    case SReg::cluster_nctaid_y: return cluster.y;
    case SReg::cluster_nctaid_z: return cluster.z;
    case SReg::cluster_ctarank:
      return block.index.x % cluster.x +
             cluster.x * (block.index.y % cluster.y + cluster.y * (block.index.z % cluster.z));
    case SReg::cluster_nctarank: return cluster.count();
    case SReg::is_explicit_cluster: return launch.cluster.count() > 1 ? 1 : 0;
    case SReg::count: break;
  }
  return 0;
}

}  // namespace pkb::ptx
