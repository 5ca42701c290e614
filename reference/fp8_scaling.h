// fp8 e4m3 delayed scaling (Transformer Engine's recipe) as the fp8 communication references
// (052, 053) apply it to one rank's tensor before it is communicated.
#pragma once

#include <ATen/ATen.h>

#include "reference/inputs.h"

namespace pkb::ref {

struct DelayedScalingResult {
  at::Tensor recon;    // P(e4m3(fp32(values) / scale) * scale), in the values' dtype
  at::Tensor history;  // the updated amax history (bf16)
};

/// a = max|values| (this rank only); the history is rotated left by one and its last entry set
/// to bf16(a); scale = max(history, 1e-12) (bf16, as fp32) / 448. The scale is fp32 in every run
/// (the fp64 one included), so the codes are the same in all of them.
DelayedScalingResult fp8_delayed_scaling(const at::Tensor& values, const at::Tensor& amax_history);

/// A 16-entry bf16 amax history drawn from the context's generator. Upstream's is all 1e-8; this
/// one is U(0, 6) so that the scale comes sometimes from the history and sometimes from the new
/// amax, and its first entry (rotated out) is 64, which a kernel that keeps it would pick up.
at::Tensor make_amax_history(InputContext& ctx);

}  // namespace pkb::ref
