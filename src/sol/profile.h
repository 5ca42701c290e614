// The machines of prompts/hardware.json, read in one place: what the prompt tells a model about a
// machine (its description lines, arch, GPU count) and the speed-of-light numbers of its
// "profile", each with the datasheet it came from, so a machine's words and numbers live side by
// side.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/common/dtype.h"

namespace pkb::sol {

struct Profile {
  std::string key;                        // "h200_8"
  std::string gpu;                        // "NVIDIA H200 SXM 141 GB"
  int count = 0;                          // GPUs in the node
  std::string arch;                       // "sm_90a": what NVRTC compiles for
  std::vector<std::string> description;   // the prompt's lines about this machine
  std::vector<std::string> device_names;  // cudaDeviceProp::name values this profile describes
  double hbm_bytes_per_s = 0;
  double link_bytes_per_s = 0;                // NVLink, one direction, per GPU
  bool nvls = false;                          // NVSwitch multicast and in-switch reduction
  std::map<DType, double> dense_flops_per_s;  // bf16, fp16, fp32 (TF32 tensor cores), fp8e4m3
  double l2_bytes = 0;
  int sm_count = 0;
  std::map<std::string, std::string> sources;  // field ("dense_flops_per_s.bf16") -> datasheet

  /// The dense rate for a problem run in `dtype`; throws pkb::InputError when the profile has none.
  double flops_rate(DType dtype) const;
};

/// $PKB_PROMPTS_DIR/hardware.json when set, else the source tree's prompts/hardware.json.
std::filesystem::path default_profiles_path();

/// Every machine in `path`; throws pkb::InputError naming the file and the field.
std::vector<Profile> load_profiles(const std::filesystem::path& path);

/// The machine called `key`; throws pkb::UsageError "--hardware x: unknown machine ...".
Profile find_profile(const std::vector<Profile>& profiles, const std::string& key);

/// The profile whose device_names holds `device_name` exactly (an "NVIDIA H100 PCIe" is not an
/// H100 SXM: its bandwidth differs, so a loose match would misjudge it).
std::optional<Profile> match_profile(const std::vector<Profile>& profiles,
                                     const std::string& device_name);

}  // namespace pkb::sol
