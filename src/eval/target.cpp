// choose_target: the probed GPUs, or the profile of the architecture when there are none.
#include <algorithm>

#include "harness/device_probe.h"
#include "harness/sim/sim_limits.h"
#include "src/eval/eval.h"

namespace pkb::eval {
namespace {

/// The limits of a GPU pkb knows by architecture, for compiling and resolving without one.
plan::DeviceLimits limits_of_arch(const std::string& arch) {
  plan::DeviceLimits limits;  // H100 / H200: 132 SMs, 227 KiB of shared memory per block
  if (arch.rfind("sm_100", 0) == 0 || arch.rfind("sm_103", 0) == 0) limits.num_sms = 148;  // B200 / B300
  return limits;
}

}  // namespace

std::string_view device_choice_name(DeviceChoice choice) {
  switch (choice) {
    case DeviceChoice::auto_detect: return "auto";
    case DeviceChoice::gpu: return "gpu";
    case DeviceChoice::sim: return "sim";
  }
  return "auto";
}

std::optional<DeviceChoice> parse_device_choice(std::string_view name) {
  for (DeviceChoice choice : {DeviceChoice::auto_detect, DeviceChoice::gpu, DeviceChoice::sim})
    if (device_choice_name(choice) == name) return choice;
  return std::nullopt;
}

Target choose_target(const std::string& arch, int world, DeviceChoice choice) {
  Target target;
  const auto machine = harness::probe_machine();
  if (machine.gpus.empty() || choice == DeviceChoice::sim) {
    target.arch = arch.empty() ? "sm_90a" : arch;
    target.limits = limits_of_arch(target.arch);
    target.no_gpu_reason = choice == DeviceChoice::sim
                               ? "--device sim"
                               : "no GPU is visible" + (machine.gpu_error.empty() ? "" : ": " + machine.gpu_error);
    if (choice != DeviceChoice::gpu) {
      // The simulated node: each rank an H200 share, as one-GPU emulation gives it, with
      // multicast (its multimem instructions reach every rank's copy).
      target.sim = true;
      target.limits.num_sms = harness::simulated_sms(world);
      target.limits.multicast = true;
      target.limits.memory_cap_bytes = harness::kSimulatedMemoryPerRank;
    }
    target.bench_limits = limits_of_arch(target.arch);
    target.bench_limits.num_sms = target.limits.num_sms;
    target.bench_limits.multicast = target.limits.multicast;
    return target;
  }
  const auto& gpu = machine.gpus[0];
  target.gpu = true;
  target.gpu_count = static_cast<int>(machine.gpus.size());
  target.gpu_name = gpu.name;
  // The `a` variants (wgmma, setmaxnreg, tcgen05) exist from Hopper on.
  const std::string own = "sm_" + std::to_string(gpu.compute_major) + std::to_string(gpu.compute_minor) +
                          (gpu.compute_major >= 9 ? "a" : "");
  target.arch = arch.empty() ? own : arch;
  target.limits = limits_of_arch(target.arch);
  target.limits.num_sms = gpu.sm_count;
  const bool emulated = target.gpu_count < world;
  // Multicast needs W distinct GPUs that all support it; emulated ranks share one GPU.
  target.limits.multicast =
      !emulated && std::all_of(machine.gpus.begin(), machine.gpus.begin() + world, [](const auto& g) { return g.multicast; });
  if (emulated) {
    // W ranks share the GPU: each gets 1/W of its SMs (a green-context partition, multiples of 8)
    // and of its memory.
    target.limits.num_sms = std::max(8, gpu.sm_count / world / 8 * 8);
    target.limits.memory_cap_bytes = std::min<std::uint64_t>(
        target.limits.memory_cap_bytes, static_cast<std::uint64_t>(gpu.memory_gib * double(1ull << 30) * 0.8) / world);
  }
  target.bench_limits = target.limits;
  return target;
}

}  // namespace pkb::eval
