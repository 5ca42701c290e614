// SigLIP loss with a ring exchange of text features (open_clip). For image batch I and text batch
// T: logits = P(P(P(s I) T^T) + b); L = -sum over i, j of P(logsigmoid(label_ij logits_ij)) / Bl
// (sum in fp32, rounded to P; division in P) with label +1 on the diagonal and -1 elsewhere for
// the own pair and -1 everywhere for other ranks' text. loss_r = L_pos(I_r, T_r), then for
// k = 1..(W-1)/2 one bidirectional neighbour exchange and + L_neg(I_r, T_{r+k}) + L_neg(I_r,
// T_{r-k}), then (W even) one hop to the right and + L_neg(I_r, T_{r+W/2}); every add in P.
// Shapes: problems/058_openclip_contrastive_loss/problem.json.
#include <ATen/CPUGeneratorImpl.h>

#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref::p058 {
namespace {

at::Tensor unit_rows(const at::Tensor& x) { return x / x.norm(2, -1, /*keepdim=*/true); }

// Upstream's independent random features have cosines near 0, so every cross-rank term is
// about softplus(-10) per pair and rounds away in bf16 (a kernel that never communicates
// passes). Here every row is u + sigma n (u one direction shared by all ranks, n per row, sigma
// per rank and tensor in [0.1, 0.33]), so all cosines are 0.9-0.99, every logit lies in
// [-1, -0.1], and each cross-rank term is 0.3-0.65 per image-text pair (Bl times that per
// block), rank- and trial-specific.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t rows = std::max<std::int64_t>(1, ctx.dim("M") / ctx.world());
  const std::int64_t width = std::max<std::int64_t>(16, ctx.dim("N"));
  at::Generator shared = at::make_generator<at::CPUGeneratorImpl>(ctx.seed() - ctx.rank());
  const at::Tensor direction = unit_rows(at::randn({1, width}, shared));
  auto features = [&] {
    const double sigma = 0.1 + 0.23 * at::rand({1}, ctx.generator()).item<double>();
    const at::Tensor noise = at::randn({rows, width}, ctx.generator()) / std::sqrt(double(width));
    return ctx.place(unit_rows(direction + sigma * noise), ctx.dtype());
  };
  Tensors in;
  in.set("image_features", features());
  in.set("text_features", features());
  return in;
}

at::Tensor block_loss(const at::Tensor& image, const at::Tensor& text, double scale, double bias,
                      bool positive) {
  const at::Tensor logits = matmul_p(image * scale, text.t()) + bias;
  const at::Tensor eye = at::eye(logits.size(0), logits.size(1), logits.options().dtype(at::kBool));
  const at::Tensor signed_logits = positive ? at::where(eye, logits, -logits) : -logits;
  const auto acc = at::promote_types(logits.scalar_type(), at::kFloat);
  const at::Tensor terms = at::log_sigmoid(signed_logits.to(acc)).to(logits.scalar_type());
  return -terms.to(acc).sum().to(logits.scalar_type()) / double(image.size(0));
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& image = in.at("image_features");
  const at::Tensor& text = in.at("text_features");
  const double scale = scalars.at("logit_scale"), bias = scalars.at("logit_bias");
  const int rank = comm.rank(), world = comm.size();
  const int left = (rank + world - 1) % world, right = (rank + 1) % world;

  at::Tensor loss = block_loss(image, text, scale, bias, /*positive=*/true);
  at::Tensor to_left = text, to_right = text;
  for (int k = 1; k <= (world - 1) / 2; ++k) {
    at::Tensor from_left = at::empty_like(text), from_right = at::empty_like(text);
    comm.send_recv(to_right, right, from_left, left);
    comm.send_recv(to_left, left, from_right, right);
    loss = loss + block_loss(image, from_right, scale, bias, false);  // T_{r+k}
    loss = loss + block_loss(image, from_left, scale, bias, false);   // T_{r-k}
    to_left = from_right;
    to_right = from_left;
  }
  if (world % 2 == 0 && world > 1) {
    at::Tensor from_left = at::empty_like(text);
    comm.send_recv(to_right, right, from_left, left);  // T_{r+W/2}
    loss = loss + block_loss(image, from_left, scale, bias, false);
  }
  return {{"loss", loss}};
}

}  // namespace

PKB_REGISTER_REFERENCE("058_openclip_contrastive_loss", make_inputs, solve);

}  // namespace pkb::ref::p058
