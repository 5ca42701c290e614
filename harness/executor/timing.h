// Timing the candidate (docs/ARCHITECTURE.md, "Evaluation"): every iteration starts with a device-side barrier across
// ranks, is bracketed by events on stream 0 of every rank (PlanRunner::issue forks every plan
// stream from stream 0 and joins them back, so these events cover all of the call), and counts as
// the slowest rank's time. Input sets rotate so no iteration finds its inputs in L2.
#pragma once

#include <vector>

#include "harness/executor/executor_setup.h"
#include "harness/executor/timing_stats.h"

namespace pkb::harness {

class CandidateTimer {
 public:
  /// `sets`: input sets already written (0..sets-1).
  CandidateTimer(Sample& sample, int sets) : sample_(sample), sets_(sets) {}

  /// One timing run: signal pads zeroed once, warm-up, then measured iterations. Returns the
  /// per-iteration times in microseconds. Throws SampleFailed on a hang or a device error.
  std::vector<double> run(const IterationPolicy& policy, const std::string& stage);

  /// The input set the last iteration used.
  int last_set() const { return (next_set_ + sets_ - 1) % sets_; }

 private:
  /// `count` iterations, synchronized once at the end; times in microseconds.
  std::vector<double> iterations(int count, const std::string& stage);

  Sample& sample_;
  int sets_;
  int next_set_ = 0;
};

}  // namespace pkb::harness
