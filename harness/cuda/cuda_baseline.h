// Timing the baseline (docs/ARCHITECTURE.md, "Evaluation"): the C++ libtorch reference in the run's dtype. On W GPUs it
// runs one thread per rank over NCCL (NcclComm), each iteration started together (the threads
// meet after draining their GPUs) and timed with events on the rank's default stream, the slowest
// rank counting; it rotates the same number of input copies as the candidate. Emulated (one
// GPU) it is the simulated world with every rank's tensors on that GPU, timed by wall clock.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "harness/executor/baseline.h"
#include "harness/executor/executor_setup.h"
#include "harness/executor/timing_stats.h"
#include "reference/tensors.h"

namespace pkb::harness {

class BaselineTimer final : public Baseline {
 public:
  /// distinct[d][r]: rank r's inputs of value set d; `sets` copies rotate (set k = d k % distinct).
  BaselineTimer(const Sample& sample, const std::vector<std::vector<ref::Tensors>>& distinct,
                int sets);
  ~BaselineTimer() override;

  /// One timing run (warm-up, then measured iterations); per-iteration times in microseconds.
  std::vector<double> run(const IterationPolicy& policy) override;
  std::string kind() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The factory pkb-worker hands the executor.
std::unique_ptr<Baseline> make_cuda_baseline(const Sample& sample,
                                             const std::vector<std::vector<ref::Tensors>>& distinct,
                                             int sets);

}  // namespace pkb::harness
