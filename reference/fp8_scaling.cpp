// fp8 delayed scaling (fp8_scaling.h).
#include "reference/fp8_scaling.h"

#include "reference/fp8.h"

namespace pkb::ref {
namespace {

constexpr double kE4m3Max = 448;

}  // namespace

DelayedScalingResult fp8_delayed_scaling(const at::Tensor& values, const at::Tensor& amax_history) {
  const at::Tensor amax = values.to(at::kFloat).abs().max();
  at::Tensor hist = at::roll(amax_history, -1);
  hist[-1] = amax.to(at::kBFloat16);
  const at::Tensor limit =
      hist.max().to(at::kFloat).clamp_min(1e-12).to(at::kBFloat16).to(at::kFloat);
  // A tensor divisor: CUDA turns division by a scalar into a multiply by its reciprocal.
  const at::Tensor scale = limit / at::full_like(limit, kE4m3Max);
  const at::Tensor codes = to_e4m3(values.to(at::kFloat) / scale);
  return {(from_e4m3(codes) * scale).to(values.scalar_type()), hist};
}

at::Tensor make_amax_history(InputContext& ctx) {
  at::Tensor hist = at::rand({16}, ctx.generator()) * 6;
  hist[0] = 64;
  return ctx.place(hist, at::kBFloat16);
}

}  // namespace pkb::ref
