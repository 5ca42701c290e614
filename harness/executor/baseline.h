// The reference a candidate is timed against, as the executor sees it. The real one (the libtorch
// reference over NCCL on W GPUs, or the simulated world on one) is harness/cuda/cuda_baseline; the
// simulated node has none, since it measures nothing.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/executor/timing_stats.h"
#include "reference/tensors.h"

namespace pkb::harness {

struct Sample;

class Baseline {
 public:
  virtual ~Baseline() = default;
  /// One timing run (warm-up, then measured iterations); per-iteration times in microseconds.
  virtual std::vector<double> run(const IterationPolicy& policy) = 0;
  /// "nccl" or "simulated".
  virtual std::string kind() const = 0;
};

/// distinct[d][r]: rank r's inputs of value set d; `sets` copies rotate (set k = d k % distinct).
using BaselineFactory = std::function<std::unique_ptr<Baseline>(
    const Sample& sample, const std::vector<std::vector<ref::Tensors>>& distinct, int sets)>;

}  // namespace pkb::harness
