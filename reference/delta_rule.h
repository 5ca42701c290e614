// The gated delta-rule recurrence shared by problems 074 (Kimi delta attention: a decay per key
// dimension) and 075 (gated DeltaNet: one decay per token and head). Header-only so that the
// two problems need no build change; each problem's reference.py repeats it in PyTorch.
#pragma once

#include <ATen/ATen.h>

namespace pkb::ref {

/// x / max(||x||_2, eps) over the last dim (torch.nn.functional.normalize).
inline at::Tensor l2_normalize(const at::Tensor& x, double eps) {
  return x / x.norm(2, {-1}, /*keepdim=*/true).clamp_min(eps);
}

/// q, k: [B, T, H, Dk] (already normalised and scaled), v: [B, T, H, Dv], decay: [B, T, H, Dk]
/// or [B, T, H, 1], beta: [B, T, H], all in one floating type. With S_0 = 0 [Dk, Dv] per (b, h),
/// for each t: S <- diag(decay_t) S; e = v_t - k_t^T S; S <- S + k_t (beta_t e)^T; o_t = q_t^T S.
/// Returns o [B, T, H, Dv] in the inputs' type.
inline at::Tensor delta_rule_recurrence(const at::Tensor& q, const at::Tensor& k,
                                        const at::Tensor& v, const at::Tensor& decay,
                                        const at::Tensor& beta) {
  const std::int64_t batch = q.size(0), steps = q.size(1), heads = q.size(2);
  at::Tensor state = at::zeros({batch, heads, k.size(3), v.size(3)}, q.options());
  std::vector<at::Tensor> outputs;
  outputs.reserve(static_cast<std::size_t>(steps));
  for (std::int64_t t = 0; t < steps; ++t) {
    const at::Tensor k_t = k.select(1, t);  // [B, H, Dk]
    state = state * decay.select(1, t).unsqueeze(-1);
    const at::Tensor error = v.select(1, t) - at::matmul(k_t.unsqueeze(-2), state).squeeze(-2);
    state = state + k_t.unsqueeze(-1) * (beta.select(1, t).unsqueeze(-1) * error).unsqueeze(-2);
    outputs.push_back(at::matmul(q.select(1, t).unsqueeze(-2), state).squeeze(-2));
  }
  return at::stack(outputs, 1);
}

}  // namespace pkb::ref
