// Correctness (docs/ARCHITECTURE.md, "Evaluation"): a trial draws fresh inputs from a secret seed, computes the expected
// outputs with the libtorch reference (fp64, and in the run's dtype for the error bound), runs
// the candidate once on poisoned outputs and garbage-filled buffers, then checks every output of
// every rank with the one correctness rule and that no input changed.
#pragma once

#include <vector>

#include "harness/executor/executor_setup.h"
#include "reference/tensors.h"

namespace pkb::harness {

/// A set of inputs with the reference's answers to them.
struct ReferenceSet {
  std::vector<ref::Tensors> inputs;         // per rank
  std::vector<ref::Tensors> expected_fp64;  // the answer
  std::vector<ref::Tensors> in_dtype;       // the reference in the run's dtype (sets the bound)
};

/// Inputs drawn with `seed` (the references' trial number) and the reference's outputs.
ReferenceSet make_reference(const Sample& sample, int seed);

/// Compares outputs against a reference set. The summary is of the first failing tensor, or of
/// the one closest to the bound when all pass.
TrialSummary check_outputs(const Sample& sample, const std::vector<ref::Tensors>& got,
                           const ReferenceSet& reference);

/// Trial `index` with `seed`: one call on input set 0, ranks started with random delays when
/// `skew`. Throws SampleFailed for a timeout or a device error; returns the verdict otherwise
/// (a changed input is a failed verdict).
TrialSummary run_trial(Sample& sample, int index, int seed, bool skew);

}  // namespace pkb::harness
