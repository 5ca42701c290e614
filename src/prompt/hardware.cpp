// Loading prompts/hardware.json: {"schema_version": 1, "machines": [{key, gpu, count, arch,
// description}]}.
#include "src/prompt/hardware.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "src/common/did_you_mean.h"
#include "src/common/error.h"

namespace pkb::prompt {

std::vector<Hardware> load_hardware(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path.string() + ": cannot read the hardware descriptions");
  const auto doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("machines") ||
      !doc["machines"].is_array())
    throw InputError(path.string(), "machines", "an array of machines", "something else");
  std::vector<Hardware> machines;
  for (std::size_t index = 0; index < doc["machines"].size(); ++index) {
    const auto& entry = doc["machines"][index];
    const std::string field = "machines[" + std::to_string(index) + "]";
    try {
      Hardware machine;
      machine.key = entry.at("key").get<std::string>();
      machine.gpu = entry.at("gpu").get<std::string>();
      machine.count = entry.at("count").get<int>();
      machine.arch = entry.at("arch").get<std::string>();
      machine.description = entry.at("description").get<std::vector<std::string>>();
      machines.push_back(machine);
    } catch (const nlohmann::json::exception& error) {
      throw InputError(path.string(), field, "key, gpu, count, arch and description lines",
                       error.what());
    }
  }
  return machines;
}

Hardware find_hardware(const std::filesystem::path& path, const std::string& key) {
  const auto machines = load_hardware(path);
  std::vector<std::string> keys;
  for (const auto& machine : machines) {
    if (machine.key == key) return machine;
    keys.push_back(machine.key);
  }
  std::string all;
  for (const auto& name : keys) all += (all.empty() ? "" : ", ") + name;
  std::string message = "--hardware " + key + ": expected one of " + all;
  if (auto near = closest_match(key, keys))
    message = "--hardware " + key + ": unknown machine, did you mean '" + *near + "'?";
  throw UsageError(message);
}

}  // namespace pkb::prompt
