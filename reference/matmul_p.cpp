// matmul_p: see the header for why the CPU path widens.
#include "reference/matmul_p.h"

#include <ATen/ATen.h>

namespace pkb::ref {

at::Tensor matmul_p(const at::Tensor& a, const at::Tensor& b) {
  const at::ScalarType p = a.scalar_type();
  if (a.is_cuda() || (p != at::kHalf && p != at::kBFloat16)) return at::matmul(a, b);
  return at::matmul(a.to(at::kFloat), b.to(at::kFloat)).to(p);
}

}  // namespace pkb::ref
