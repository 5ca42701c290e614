// Moving a sample's tensors between libtorch and the candidate's buffers: inputs in, outputs out,
// poison and garbage before a call, and the read-back that proves inputs were left alone.
#pragma once

#include <ATen/ATen.h>

#include <string>
#include <vector>

#include "harness/executor/exec_device.h"
#include "harness/device/plan_runner.h"
#include "reference/tensors.h"

namespace pkb::harness {

/// The bytes of a tensor (moved to the CPU, made contiguous).
std::string tensor_bytes(const at::Tensor& tensor);

/// Writes every input and the initial value of every inout output of every rank into input set
/// `set`. inputs[r] are rank r's tensors by problem.json name.
void write_inputs(Device& device, const PlanRunner& runner, const std::vector<ref::Tensors>& inputs,
                  int set);

/// Writes only the inout outputs' initial values (before a re-check call on a rotated set).
void write_inouts(Device& device, const PlanRunner& runner, const std::vector<ref::Tensors>& inputs,
                  int set);

/// Before a call: outputs poisoned (NaN; `variant` flips the pattern), plan buffers filled with
/// garbage from `seed`, signal pads zeroed. Queued on stream 0 of every rank.
void prepare_call(ExecDevice& device, const PlanRunner& runner, int set, int variant,
                  std::uint64_t seed);

/// Every output of every rank, read into CPU tensors of the outputs' shapes and dtypes.
std::vector<ref::Tensors> read_outputs(Device& device, const PlanRunner& runner, int set);

/// "" when every input buffer of `set` still holds `inputs`; otherwise which rank changed which
/// input and where ("rank 1 changed its input 'x' (first at byte 512)").
std::string changed_input(Device& device, const PlanRunner& runner,
                          const std::vector<ref::Tensors>& inputs, int set);

/// Bytes of the inputs (and inout outputs) of one set on `rank`: what one timing iteration reads.
std::uint64_t input_bytes(const PlanRunner& runner, int rank);

}  // namespace pkb::harness
