// Adam rounded op by op to P (problems 043, 047); the contract is in adam_rounded.h.
#include "reference/adam_rounded.h"

#include <cmath>

#include <ATen/ATen.h>

namespace pkb::ref {

AdamRounded adam_rounded(const at::Tensor& grad, const at::Tensor& exp_avg,
                         const at::Tensor& exp_avg_sq, const Scalars& scalars) {
  const double beta1 = scalars.at("beta1"), beta2 = scalars.at("beta2");
  const double eps = scalars.at("eps");
  const double step = static_cast<double>(scalars.integer("step"));
  const at::ScalarType dtype = grad.scalar_type();
  const at::ScalarType acc = at::promote_types(dtype, at::kFloat);
  const auto up = [&](const at::Tensor& t) { return t.to(acc); };

  const at::Tensor g = up(grad);
  at::Tensor m = (up(exp_avg) * beta1).to(dtype);
  m = (up(m) + (1 - beta1) * g).to(dtype);
  at::Tensor v = (up(exp_avg_sq) * beta2).to(dtype);
  v = (up(v) + (1 - beta2) * g * g).to(dtype);
  // Tensor divisors: a GPU divides by a host scalar as a multiply by its reciprocal.
  const at::Tensor correction1 = at::full({}, 1 - std::pow(beta1, step), g.options());
  const at::Tensor correction2 = at::full({}, 1 - std::pow(beta2, step), g.options());
  const at::Tensor m_hat = (up(m) / correction1).to(dtype);
  const at::Tensor v_hat = (up(v) / correction2).to(dtype);
  at::Tensor denom = at::sqrt(up(v_hat)).to(dtype);
  denom = (up(denom) + eps).to(dtype);
  return {m, v, (up(m_hat) / up(denom)).to(dtype)};
}

}  // namespace pkb::ref
