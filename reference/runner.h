// Running a registered reference: per-rank inputs from its generator, then its solution on W
// simulated ranks, with every tensor checked against problem.json's names, shapes and dtypes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "reference/comm/sim_world.h"
#include "reference/registry.h"
#include "src/problem/spec.h"

namespace pkb::ref {

at::ScalarType to_scalar_type(DType dtype);

struct RunConfig {
  int world = 2;
  DType dtype = DType::fp32;  // the run precision P
  std::map<std::string, std::int64_t> dims;
  int trial = 0;
  at::Device device = at::kCPU;
};

/// The reference registered for spec.key; throws naming the missing reference file.
const Reference& reference_for(const problem::ProblemSpec& spec);

/// Inputs of every rank, checked against problem.json.
std::vector<Tensors> make_rank_inputs(const problem::ProblemSpec& spec, const RunConfig& config);

struct SolveOptions {
  SimMode mode = SimMode::rank_order;
  /// Run the solution on fp64 copies of every floating input: the high-precision answer that
  /// the check compares against (docs/ARCHITECTURE.md, "Evaluation"). Output dtypes are then not checked.
  bool widen_to_fp64 = false;
};

/// Outputs of every rank, checked against problem.json. A rank that throws aborts the others;
/// the first error is rethrown as pkb::Error prefixed with the problem and rank.
std::vector<Tensors> solve_simulated(const problem::ProblemSpec& spec, const RunConfig& config,
                                     const std::vector<Tensors>& inputs, const SolveOptions& options);

/// The communicators of the W ranks of one run, as solve_ranks uses them.
class RankComms {
 public:
  virtual ~RankComms() = default;
  /// Called once, on rank's own thread, before solve.
  virtual Comm& comm(int rank) const = 0;
  /// The rank's inputs where that rank computes (its GPU for NCCL); unchanged by default.
  virtual Tensors place(int rank, const Tensors& inputs) const { return inputs; }
  /// Wakes ranks waiting on a failed one, where the backend can.
  virtual void abort(const std::string& reason) const = 0;
  virtual void finished(int rank) const = 0;
};

/// Turns TF32 off for cuDNN convolutions and cuBLAS GEMMs, so a reference's fp32 is full fp32 on a
/// GPU as on a CPU. solve_ranks calls it; a GPU evaluator running references must too.
void use_full_fp32();

/// Runs the reference on one thread per rank with the given communicators; outputs are checked
/// against problem.json, and the first rank error is rethrown prefixed with the problem and rank.
std::vector<Tensors> solve_ranks(const problem::ProblemSpec& spec, const RunConfig& config,
                                 const std::vector<Tensors>& inputs, bool widen_to_fp64,
                                 const RankComms& comms);

/// problem.json's scalars with their values.
Scalars scalars_of(const problem::ProblemSpec& spec);

}  // namespace pkb::ref
