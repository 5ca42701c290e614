// The registry's storage: a function-local map, so registration order across files is safe.
#include "reference/registry.h"

#include <map>

#include "src/common/error.h"

namespace pkb::ref {
namespace {

std::map<std::string, Reference>& table() {
  static std::map<std::string, Reference> references;
  return references;
}

}  // namespace

bool register_reference(Reference reference) {
  const std::string key = reference.key;
  if (!table().emplace(key, std::move(reference)).second)
    throw Error("reference '" + key + "' is registered twice");
  return true;
}

const Reference* find_reference(const std::string& key) {
  auto found = table().find(key);
  return found == table().end() ? nullptr : &found->second;
}

std::vector<std::string> registered_keys() {
  std::vector<std::string> keys;
  for (const auto& [key, reference] : table()) keys.push_back(key);
  return keys;
}

}  // namespace pkb::ref
