// Distributed DISCO spherical convolution on an azimuth (A) x polar (P_) grid: azimuth all-to-all
// (channel blocks for longitudes), Y[b,c,k,o,lo] = sum_{i,m} psi[k,o,i*Wn+m] Xloc[b,c,i,(m+lo)%Wn],
// polar all-reduce of Y, latitude slice, azimuth all-to-all back, out = bias + weight . U.
// Shapes and groups: problems/062_torchharmonics_spherical_convolution/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p062 {
namespace {

constexpr std::int64_t kPerRow = 4;  // non-zeros of psi per (k, o)

// Per-rank x, weight, bias and psi (its values and, through p, its rows): skipping the azimuth
// transpose rolls over the wrong longitude range, skipping the polar sum drops the other latitude
// blocks' psi contributions.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t world = ctx.world(), n_az = world % 2 == 0 ? 2 : 1, n_polar = world / n_az;
  const std::int64_t p = ctx.rank() / n_az;
  const std::int64_t batch = ctx.dim("B"), channels = ctx.dim("C"), c_out = ctx.dim("C_out");
  const std::int64_t kernel = ctx.dim("K"), n_lat = ctx.dim("H"), n_lon = ctx.dim("Wn");
  const std::int64_t hl = n_lat / n_polar, wl = n_lon / n_az;
  const auto fp32 = at::TensorOptions().dtype(at::kFloat);
  const at::Tensor x = at::randn({batch, channels, hl, wl}, ctx.generator(), fp32);
  const at::Tensor weight = at::randn({c_out, channels, kernel}, ctx.generator(), fp32);
  const at::Tensor bias = at::randn({c_out}, ctx.generator(), fp32);
  const at::Tensor values = at::randn({kernel * n_lat * kPerRow}, ctx.generator(), fp32) * 0.05;
  // entry n = (k * H + o) * 4 + e sits at (k, o, ((o - p*Hl) mod Hl) * Wn + (o + e*(k+1)) mod Wn)
  const auto i64 = at::TensorOptions().dtype(at::kLong);
  const at::Tensor k = at::arange(kernel, i64).view({-1, 1, 1}).expand({kernel, n_lat, kPerRow});
  const at::Tensor o = at::arange(n_lat, i64).view({1, -1, 1}).expand({kernel, n_lat, kPerRow});
  const at::Tensor e = at::arange(kPerRow, i64).view({1, 1, -1}).expand({kernel, n_lat, kPerRow});
  const at::Tensor lat = at::remainder(o - p * hl, hl);
  const at::Tensor lon = at::remainder(o + e * (k + 1), n_lon);
  const at::Tensor indices =
      at::stack({k.reshape(-1), o.reshape(-1), (lat * n_lon + lon).reshape(-1)});
  return {{"x", ctx.place(x, at::kFloat)},
          {"weight", ctx.place(weight, at::kFloat)},
          {"bias", ctx.place(bias, at::kFloat)},
          {"psi_indices", ctx.place(indices, at::kLong)},
          {"psi_values", ctx.place(values, at::kFloat)}};
}

// List all_to_all of equally shaped blocks (dim `dim` split into the group's size): block j goes
// to peer j; returns the received blocks concatenated along `cat_dim` in source order.
at::Tensor exchange(Comm& group, const at::Tensor& t, std::int64_t dim, std::int64_t cat_dim) {
  const std::vector<at::Tensor> blocks = t.chunk(group.size(), dim);
  std::vector<at::Tensor> flat;
  for (const at::Tensor& block : blocks) flat.push_back(block.reshape(-1));
  const at::Tensor send = at::cat(flat);
  const at::Tensor recv = at::empty_like(send);
  group.all_to_all(recv, send, {}, {});
  std::vector<at::Tensor> parts;
  for (const at::Tensor& part : recv.chunk(group.size()))
    parts.push_back(part.view(blocks[0].sizes()));
  return at::cat(parts, cat_dim);
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  Comm& azimuth = comm.group("azimuth");
  Comm& polar = comm.group("polar");
  const at::Tensor& x = in.at("x");
  const at::Tensor& weight = in.at("weight");
  const std::int64_t n_az = azimuth.size(), n_polar = polar.size(), p = polar.rank();
  const std::int64_t batch = x.size(0), channels = x.size(1), hl = x.size(2), wl = x.size(3);
  const std::int64_t c_out = weight.size(0), kernel = weight.size(2);
  const std::int64_t n_lat = hl * n_polar, n_lon = wl * n_az, cc = channels / n_az;

  const at::Tensor x_local = n_az > 1 ? exchange(azimuth, x, 1, 3) : x;  // [B, Cc, Hl, Wn]

  // Gather Xloc[b, c, i, (m + lo) mod Wn] for every non-zero and every lo, weight by psi, and add
  // into row k*H + o.
  const at::Tensor& idx = in.at("psi_indices");
  const at::Tensor col = idx[2], i = at::div(col, n_lon, "floor"), m = at::remainder(col, n_lon);
  const at::Tensor lo = at::arange(n_lon, idx.options());
  const at::Tensor src = i.view({-1, 1}) * n_lon + at::remainder(m.view({-1, 1}) + lo, n_lon);
  const std::int64_t nnz = idx.size(1);
  const at::Tensor gathered = x_local.reshape({batch, cc, hl * n_lon})
                                  .index_select(2, src.reshape(-1))
                                  .view({batch, cc, nnz, n_lon}) *
                              in.at("psi_values").view({1, 1, nnz, 1});
  at::Tensor y = at::zeros({batch, cc, kernel * n_lat, n_lon}, x.options());
  y.index_add_(2, idx[0] * n_lat + idx[1], gathered);

  if (n_polar > 1) polar.all_reduce(y, ReduceOp::sum);
  const at::Tensor mine = y.view({batch, cc, kernel, n_lat, n_lon}).slice(3, p * hl, (p + 1) * hl);
  const at::Tensor u = n_az > 1 ? exchange(azimuth, mine, 4, 1) : mine;  // [B, C, K, Hl, Wl]

  const at::Tensor mixed = at::matmul(weight.reshape({c_out, channels * kernel}),
                                      u.reshape({batch, channels * kernel, hl * wl}));
  const at::Tensor out = mixed + in.at("bias").view({1, c_out, 1});
  return {{"out", out.view({batch, c_out, hl, wl})}};
}

}  // namespace

PKB_REGISTER_REFERENCE("062_torchharmonics_spherical_convolution", make_inputs, solve);

}  // namespace pkb::ref::p062
