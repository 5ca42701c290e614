// Adam's moment updates and step direction as problems 043 and 047 round them: every
// element-wise op computes in fp32 (fp64 in the checker's fp64 rerun) and rounds once to P.
#pragma once

#include <ATen/core/Tensor.h>

#include "reference/tensors.h"

namespace pkb::ref {

/// The new moments and the direction m_hat / (sqrt(v_hat) + eps), all in P.
struct AdamRounded {
  at::Tensor exp_avg;
  at::Tensor exp_avg_sq;
  at::Tensor direction;
};

/// m = b1 m + (1 - b1) g, v = b2 v + (1 - b2) g^2, bias-corrected by `step`, from the scalars
/// beta1, beta2, eps and step; the caller applies lr (and any decay) its own way.
AdamRounded adam_rounded(const at::Tensor& grad, const at::Tensor& exp_avg,
                         const at::Tensor& exp_avg_sq, const Scalars& scalars);

}  // namespace pkb::ref
