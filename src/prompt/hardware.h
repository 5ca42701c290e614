// The machines a prompt can describe (prompts/hardware.json): the GPU, how many, how they connect.
// The description lines are what the model reads; the other fields are what pkb checks.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pkb::prompt {

struct Hardware {
  std::string key;                       // "h100_8"
  std::string gpu;                       // "NVIDIA H100 SXM5 80 GB"
  int count = 0;                         // GPUs in the node
  std::string arch;                      // "sm_90a"
  std::vector<std::string> description;  // lines for the prompt
};

/// Every machine in `path`; throws pkb::InputError naming the file and field.
std::vector<Hardware> load_hardware(const std::filesystem::path& path);

/// The machine called `key`; throws pkb::UsageError "--hardware x: expected one of ...".
Hardware find_hardware(const std::filesystem::path& path, const std::string& key);

}  // namespace pkb::prompt
