// InputContext: what a reference's input generator may know (dims, W, rank, trial) and the
// seeded draws it may make. Inputs are drawn on the CPU in fp32/int64 from a generator seeded
// by (problem, rank, trial), then cast to the run's dtype and moved to the run's device, so the
// same inputs come out on every machine.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <ATen/ATen.h>

namespace pkb::ref {

/// seed = 42 + 1000 * id + rank + 1000003 * trial: docs/ARCHITECTURE.md, "Inputs".
std::uint64_t input_seed(int problem_id, int rank, int trial);

class InputContext {
 public:
  InputContext(int problem_id, std::map<std::string, std::int64_t> dims, int world, int rank,
               int trial, at::ScalarType dtype, at::Device device);

  std::int64_t dim(const std::string& name) const;  // throws naming the dim
  int world() const { return world_; }
  int rank() const { return rank_; }
  int trial() const { return trial_; }
  at::ScalarType dtype() const { return dtype_; }
  std::uint64_t seed() const { return seed_; }

  /// Standard normal values in the run's dtype.
  at::Tensor randn(at::IntArrayRef shape);
  /// Uniform integers in [low, high], stored in the run's dtype (exact there for small ranges).
  at::Tensor randint(std::int64_t low, std::int64_t high, at::IntArrayRef shape);
  /// Uniform integers in [low, high] as int64 (indices, counts).
  at::Tensor randint64(std::int64_t low, std::int64_t high, at::IntArrayRef shape);
  /// Uniform values in [0, 1) in the run's dtype.
  at::Tensor rand(at::IntArrayRef shape);
  /// A random permutation of 0..n-1 (int64).
  at::Tensor randperm(std::int64_t n);
  /// The seeded CPU generator, for draws the helpers above do not cover: draw on the CPU with it,
  /// then hand the result to place().
  at::Generator& generator() { return generator_; }
  /// Casts a CPU tensor to `dtype` and moves it to the run's device.
  at::Tensor place(const at::Tensor& cpu_values, at::ScalarType dtype) const;
  /// Moves a tensor made on the CPU to the run's device (use for derived inputs).
  at::Tensor to_device(const at::Tensor& tensor) const;

 private:
  int problem_id_;
  std::map<std::string, std::int64_t> dims_;
  int world_;
  int rank_;
  int trial_;
  at::ScalarType dtype_;
  at::Device device_;
  std::uint64_t seed_;
  at::Generator generator_;
};

}  // namespace pkb::ref
