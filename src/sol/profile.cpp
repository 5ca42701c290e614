// Loading the "profile" objects of prompts/hardware.json (see profile.h).
#include "src/sol/profile.h"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "src/common/did_you_mean.h"
#include "src/common/error.h"
#include "src/common/prompts_dir.h"

namespace pkb::sol {
namespace {

using nlohmann::json;

/// {"value": V, "source": "..."}: every number carries where it came from.
json sourced(const json& parent, const std::string& key, const std::string& field, Profile& profile,
             const std::string& file, const std::string& where) {
  if (!parent.contains(key) || !parent[key].is_object() || !parent[key].contains("value"))
    throw InputError(file, where + "." + field, "{\"value\": ..., \"source\": \"...\"}",
                     "nothing usable");
  const json& entry = parent[key];
  if (!entry.contains("source") || !entry["source"].is_string() ||
      entry["source"].get<std::string>().empty())
    throw InputError(file, where + "." + field + ".source", "the datasheet the number comes from",
                     "nothing");
  profile.sources[field] = entry["source"].get<std::string>();
  return entry["value"];
}

double positive(const json& value, const std::string& file, const std::string& field) {
  if (!value.is_number() || value.get<double>() <= 0)
    throw InputError(file, field, "a positive number", value.dump());
  return value.get<double>();
}

Profile read_profile(const json& machine, const std::string& file, const std::string& where) {
  Profile profile;
  profile.key = machine.value("key", "");
  profile.gpu = machine.value("gpu", "");
  profile.count = machine.value("count", 0);
  profile.arch = machine.value("arch", "");
  if (!machine.contains("profile") || !machine["profile"].is_object())
    throw InputError(file, where + ".profile", "the machine's numbers (hbm_bytes_per_s, ...)",
                     "nothing");
  const json& numbers = machine["profile"];
  const std::string at = where + ".profile";
  if (numbers.contains("device_names"))
    profile.device_names = numbers["device_names"].get<std::vector<std::string>>();
  profile.hbm_bytes_per_s =
      positive(sourced(numbers, "hbm_bytes_per_s", "hbm_bytes_per_s", profile, file, at), file,
               at + ".hbm_bytes_per_s");
  profile.link_bytes_per_s =
      positive(sourced(numbers, "link_bytes_per_s", "link_bytes_per_s", profile, file, at), file,
               at + ".link_bytes_per_s");
  const json nvls = sourced(numbers, "nvls", "nvls", profile, file, at);
  if (!nvls.is_boolean()) throw InputError(file, at + ".nvls.value", "true or false", nvls.dump());
  profile.nvls = nvls.get<bool>();
  profile.l2_bytes =
      positive(sourced(numbers, "l2_bytes", "l2_bytes", profile, file, at), file, at + ".l2_bytes");
  profile.sm_count = static_cast<int>(positive(
      sourced(numbers, "sm_count", "sm_count", profile, file, at), file, at + ".sm_count"));
  if (!numbers.contains("dense_flops_per_s") || !numbers["dense_flops_per_s"].is_object())
    throw InputError(file, at + ".dense_flops_per_s", "an object of dtype to FLOP/s", "nothing");
  const json& rates = numbers["dense_flops_per_s"];
  for (const auto& item : rates.items()) {
    auto dtype =
        item.key() == "fp8" ? std::optional<DType>(DType::fp8e4m3) : parse_dtype(item.key());
    if (!dtype)
      throw InputError(file, at + ".dense_flops_per_s", "bf16, fp16, fp32 or fp8",
                       "'" + item.key() + "'");
    const std::string field = "dense_flops_per_s." + item.key();
    profile.dense_flops_per_s[*dtype] =
        positive(sourced(rates, item.key(), field, profile, file, at), file, at + "." + field);
  }
  for (DType needed : {DType::bf16, DType::fp16, DType::fp32})
    if (!profile.dense_flops_per_s.count(needed))
      throw InputError(file, at + ".dense_flops_per_s", "a rate for bf16, fp16 and fp32",
                       "none for " + std::string(dtype_name(needed)));
  if (!machine.contains("description") || !machine["description"].is_array())
    throw InputError(file, where + ".description", "the prompt's lines about the machine", "nothing");
  for (const auto& line : machine["description"]) {
    if (!line.is_string()) throw InputError(file, where + ".description", "lines of text", line.dump());
    profile.description.push_back(line.get<std::string>());
  }
  return profile;
}

}  // namespace

double Profile::flops_rate(DType dtype) const {
  auto found = dense_flops_per_s.find(dtype == DType::fp8e5m2 ? DType::fp8e4m3 : dtype);
  if (found == dense_flops_per_s.end())
    throw InputError("hardware profile " + key + ": no dense FLOP/s for " +
                     std::string(dtype_name(dtype)));
  return found->second;
}

std::filesystem::path default_profiles_path() {
  return prompts_dir() / "hardware.json";
}

std::vector<Profile> load_profiles(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path.string() + ": cannot read the hardware profiles");
  const json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("machines") ||
      !doc["machines"].is_array())
    throw InputError(path.string(), "machines", "an array of machines", "something else");
  std::vector<Profile> profiles;
  for (std::size_t index = 0; index < doc["machines"].size(); ++index) {
    try {
      profiles.push_back(read_profile(doc["machines"][index], path.string(),
                                      "machines[" + std::to_string(index) + "]"));
    } catch (const json::exception& error) {
      throw InputError(path.string(), "machines[" + std::to_string(index) + "].profile",
                       "a valid profile", error.what());
    }
  }
  return profiles;
}

Profile find_profile(const std::vector<Profile>& profiles, const std::string& key) {
  std::vector<std::string> keys;
  for (const auto& profile : profiles) {
    if (profile.key == key) return profile;
    keys.push_back(profile.key);
  }
  std::string all;
  for (const auto& name : keys) all += (all.empty() ? "" : ", ") + name;
  std::string hint;
  if (auto near = closest_match(key, keys)) hint = " (did you mean '" + *near + "'?)";
  throw UsageError("--hardware " + key + ": unknown machine" + hint + "; expected one of " + all);
}

std::optional<Profile> match_profile(const std::vector<Profile>& profiles,
                                     const std::string& device_name) {
  for (const auto& profile : profiles)
    for (const auto& name : profile.device_names)
      if (name == device_name) return profile;
  return std::nullopt;
}

}  // namespace pkb::sol
