// The environment section of run.json, from harness::probe_machine().
#include "src/run/environment.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "src/common/sha256.h"

namespace pkb::run {
namespace {

nlohmann::json text_or_null(const std::string& text) {
  return text.empty() ? nlohmann::json() : nlohmann::json(text);
}

}  // namespace

nlohmann::json environment_json(const harness::MachineInfo& machine,
                                const std::string& torch_version) {
  nlohmann::json gpus = nlohmann::json::array();
  nlohmann::json nvlink = nlohmann::json::array();
  bool multicast = !machine.gpus.empty();
  for (const auto& gpu : machine.gpus) {
    gpus.push_back({{"name", gpu.name},
                    {"memory_bytes", std::llround(gpu.memory_gib * 1024.0 * 1024.0 * 1024.0)},
                    {"sm_count", gpu.sm_count},
                    {"compute_capability",
                     std::to_string(gpu.compute_major) + "." + std::to_string(gpu.compute_minor)}});
    nvlink.push_back(gpu.nvlinks_active < 0 ? nlohmann::json()
                                            : nlohmann::json(gpu.nvlinks_active));
    multicast = multicast && gpu.multicast;
  }
  const bool gpu = !machine.gpus.empty();
  return {{"gpu_available", gpu},
          {"no_gpu_reason", gpu ? nlohmann::json()
                                : nlohmann::json(machine.gpu_error.empty() ? "no GPU is visible"
                                                                           : machine.gpu_error)},
          {"gpus", gpus},
          {"driver_version", text_or_null(machine.cuda_driver)},
          {"cuda_runtime_version", text_or_null(machine.cuda_runtime)},
          {"nvrtc_version", text_or_null(machine.nvrtc)},
          {"nccl_version", text_or_null(machine.nccl)},
          {"torch_version", text_or_null(torch_version)},
          {"topology",
           {{"peer_access", gpu ? nlohmann::json(machine.peer_access) : nlohmann::json()},
            {"nvlink", gpu ? nvlink : nlohmann::json()},  // active links per GPU, null: no NVML
            {"multicast", gpu ? nlohmann::json(multicast) : nlohmann::json()}}},
          // device_probe does not read clocks yet: null, as docs/RESULTS.md asks for what is unknown.
          {"clocks", {{"sm_mhz", nullptr}, {"memory_mhz", nullptr}}}};
}

std::string hardware_key(const harness::MachineInfo& machine, int max_world, bool simulated) {
  if (simulated) return "simulated node";
  if (machine.gpus.empty()) return "no GPU";
  const int count = static_cast<int>(machine.gpus.size());
  std::string key = std::to_string(count) + "x " + machine.gpus[0].name;
  return max_world > count ? key + " (emulated)" : key;
}

nlohmann::json problem_set_json(std::vector<const problem::ProblemSpec*> specs) {
  std::sort(specs.begin(), specs.end(),
            [](const auto* a, const auto* b) { return a->key < b->key; });
  std::string bytes;
  for (const auto* spec : specs) {
    std::ifstream in(spec->dir / "problem.json", std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    bytes += text.str();
  }
  return {{"count", specs.size()}, {"sha256", sha256_hex(bytes)}};
}

}  // namespace pkb::run
