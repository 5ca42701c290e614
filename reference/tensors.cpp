// Lookups for Tensors and Scalars.
#include "reference/tensors.h"

#include <cmath>

#include "src/common/error.h"

namespace pkb::ref {

const at::Tensor& Tensors::at(const std::string& name) const {
  for (const auto& [key, tensor] : items_)
    if (key == name) return tensor;
  std::string known;
  for (const auto& [key, tensor] : items_) known += (known.empty() ? "" : ", ") + key;
  throw Error("no tensor named '" + name + "' (have: " + known + ")");
}

bool Tensors::contains(const std::string& name) const {
  for (const auto& item : items_)
    if (item.first == name) return true;
  return false;
}

void Tensors::set(const std::string& name, at::Tensor tensor) {
  for (auto& item : items_) {
    if (item.first == name) {
      item.second = std::move(tensor);
      return;
    }
  }
  items_.emplace_back(name, std::move(tensor));
}

double Scalars::at(const std::string& name) const {
  auto found = values_.find(name);
  if (found == values_.end()) throw Error("no scalar named '" + name + "' in problem.json");
  return found->second;
}

std::int64_t Scalars::integer(const std::string& name) const {
  return static_cast<std::int64_t>(std::llround(at(name)));
}

}  // namespace pkb::ref
