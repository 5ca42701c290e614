// InputContext's seeded draws.
#include "reference/inputs.h"

#include <ATen/CPUGeneratorImpl.h>

#include "src/common/error.h"

namespace pkb::ref {

std::uint64_t input_seed(int problem_id, int rank, int trial) {
  return 42ull + 1000ull * static_cast<std::uint64_t>(problem_id) + static_cast<std::uint64_t>(rank) +
         1000003ull * static_cast<std::uint64_t>(trial);
}

InputContext::InputContext(int problem_id, std::map<std::string, std::int64_t> dims, int world,
                           int rank, int trial, at::ScalarType dtype, at::Device device)
    : problem_id_(problem_id),
      dims_(std::move(dims)),
      world_(world),
      rank_(rank),
      trial_(trial),
      dtype_(dtype),
      device_(device),
      seed_(input_seed(problem_id, rank, trial)),
      generator_(at::detail::createCPUGenerator(seed_)) {}

std::int64_t InputContext::dim(const std::string& name) const {
  auto found = dims_.find(name);
  if (found == dims_.end()) throw Error("input generator: problem.json declares no dim '" + name + "'");
  return found->second;
}

at::Tensor InputContext::place(const at::Tensor& cpu_values, at::ScalarType dtype) const {
  return cpu_values.to(dtype).to(device_);
}

at::Tensor InputContext::to_device(const at::Tensor& tensor) const { return tensor.to(device_); }

at::Tensor InputContext::randn(at::IntArrayRef shape) {
  return place(at::randn(shape, generator_, at::TensorOptions().dtype(at::kFloat)), dtype_);
}

at::Tensor InputContext::randint(std::int64_t low, std::int64_t high, at::IntArrayRef shape) {
  return place(at::randint(low, high + 1, shape, generator_, at::TensorOptions().dtype(at::kLong)),
                dtype_);
}

at::Tensor InputContext::rand(at::IntArrayRef shape) {
  return place(at::rand(shape, generator_, at::TensorOptions().dtype(at::kFloat)), dtype_);
}

at::Tensor InputContext::randperm(std::int64_t n) {
  return place(at::randperm(n, generator_, at::TensorOptions().dtype(at::kLong)), at::kLong);
}

at::Tensor InputContext::randint64(std::int64_t low, std::int64_t high, at::IntArrayRef shape) {
  return place(at::randint(low, high + 1, shape, generator_, at::TensorOptions().dtype(at::kLong)),
                at::kLong);
}

}  // namespace pkb::ref
