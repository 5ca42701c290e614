// `pkb doctor [--json] [--no-measure]`: GPUs, the peer access matrix, NVLink and multicast, library
// versions, which model API keys are set (never their values), and the hardware profile's numbers
// beside the copy and peer bandwidth measured here (doctor_profile.h).
#include <cstdlib>
#include <iostream>

#include <torch/csrc/api/include/torch/version.h>

#include <nlohmann/json.hpp>

#include <ATen/Context.h>

#include "harness/device_probe.h"
#include "src/cli/command.h"
#include "src/cli/doctor_profile.h"

namespace pkb::cli {
namespace {

constexpr const char* kApiKeys[] = {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY",
                                    "GOOGLE_API_KEY", "TOGETHER_API_KEY"};

std::string or_none(const std::string& text, const char* none) { return text.empty() ? none : text; }

bool key_set(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0';
}

}  // namespace

std::function<int()> setup_doctor(CLI::App& app, const GlobalOptions& global) {
  auto json = std::make_shared<bool>(false);
  auto no_measure = std::make_shared<bool>(false);
  app.add_flag("--json", *json, "Print one JSON document instead of text");
  app.add_flag("--no-measure", *no_measure, "Skip the copy and peer bandwidth measurements (about a second)");
  return [json, no_measure] {
    const harness::MachineInfo info = harness::probe_machine();
    const nlohmann::ordered_json sol_check = profile_check(info, !*no_measure);
    const std::string torch_version = TORCH_VERSION;
    if (*json) {
      nlohmann::ordered_json doc = {{"schema_version", 1},
                                    {"cuda_runtime", info.cuda_runtime},
                                    {"cuda_driver", info.cuda_driver},
                                    {"nvrtc", info.nvrtc},
                                    {"nccl", info.nccl},
                                    {"libtorch", torch_version},
                                    {"gpu_error", info.gpu_error}};
      doc["gpus"] = nlohmann::ordered_json::array();
      for (const auto& gpu : info.gpus)
        doc["gpus"].push_back({{"index", gpu.index}, {"name", gpu.name}, {"sm_count", gpu.sm_count},
                               {"compute_capability", std::to_string(gpu.compute_major) + "." +
                                                          std::to_string(gpu.compute_minor)},
                               {"memory_gib", gpu.memory_gib}, {"multicast", gpu.multicast},
                               {"nvlinks_active", gpu.nvlinks_active}});
      doc["peer_access"] = info.peer_access;
      doc["peer_performance_rank"] = info.peer_rank;
      nlohmann::ordered_json keys = nlohmann::ordered_json::object();
      for (const char* key : kApiKeys) keys[key] = key_set(key);
      doc["api_keys_set"] = keys;
      doc["sol_profile"] = sol_check;
      std::cout << doc.dump(2) << "\n";
      return 0;
    }
    std::cout << "# pkb doctor\n"
              << "cuda runtime  " << or_none(info.cuda_runtime, "unavailable") << "\n"
              << "cuda driver   " << or_none(info.cuda_driver, "none loaded") << "\n"
              << "nvrtc         " << or_none(info.nvrtc, "unavailable") << "\n"
              << "nccl          " << or_none(info.nccl, "not built in (install libnccl-dev and rebuild)") << "\n"
              << "libtorch      " << torch_version << (at::hasCUDA() ? " (CUDA)" : " (CPU only)") << "\n";
    if (info.gpus.empty()) std::cout << "gpus          none: " << info.gpu_error << "\n";
    for (const auto& gpu : info.gpus)
      std::cout << "gpu " << gpu.index << "         " << gpu.name << ", sm_" << gpu.compute_major
                << gpu.compute_minor << ", " << gpu.sm_count << " SMs, " << static_cast<int>(gpu.memory_gib)
                << " GiB, multicast " << (gpu.multicast ? "yes" : "no") << ", nvlinks "
                << (gpu.nvlinks_active < 0 ? std::string("unknown (no NVML)") : std::to_string(gpu.nvlinks_active))
                << "\n";
    if (info.gpus.size() > 1) {
      std::cout << "peer access (row can map column's memory; number = driver performance rank):\n     ";
      for (const auto& gpu : info.gpus) std::cout << " gpu" << gpu.index;
      std::cout << "\n";
      for (std::size_t a = 0; a < info.gpus.size(); ++a) {
        std::cout << "gpu" << a << " ";
        for (std::size_t b = 0; b < info.gpus.size(); ++b)
          std::cout << "    " << (a == b ? "-" : info.peer_access[a][b] ? std::to_string(info.peer_rank[a][b]) : "x");
        std::cout << "\n";
      }
    }
    print_profile_check(sol_check, std::cout);
    for (const char* key : kApiKeys) std::cout << "api key       " << key << ": " << (key_set(key) ? "set" : "not set") << "\n";
    return 0;
  };
}

}  // namespace pkb::cli
