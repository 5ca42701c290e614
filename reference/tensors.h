// Tensors and Scalars: the named values a reference takes and returns, with lookups that name
// the missing entry instead of throwing std::out_of_range.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <ATen/ATen.h>

namespace pkb::ref {

/// An ordered name-to-tensor list (order = problem.json's).
class Tensors {
 public:
  Tensors() = default;
  Tensors(std::initializer_list<std::pair<std::string, at::Tensor>> items) : items_(items) {}

  const at::Tensor& at(const std::string& name) const;
  bool contains(const std::string& name) const;
  void set(const std::string& name, at::Tensor tensor);  // replaces or appends
  std::size_t size() const { return items_.size(); }
  const std::vector<std::pair<std::string, at::Tensor>>& items() const { return items_; }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  std::vector<std::pair<std::string, at::Tensor>> items_;
};

/// Scalar arguments from problem.json ("scalars"), all stored as double.
class Scalars {
 public:
  Scalars() = default;
  explicit Scalars(std::map<std::string, double> values) : values_(std::move(values)) {}
  double at(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;
  const std::map<std::string, double>& values() const { return values_; }

 private:
  std::map<std::string, double> values_;
};

}  // namespace pkb::ref
