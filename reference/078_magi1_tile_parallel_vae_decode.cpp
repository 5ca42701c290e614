// MAGI-1 tile-parallel VAE decode. The latent is cut into overlapping tiles (stride = tile size *
// (1 - overlap)); tiles sorted by size (descending, stable) are dealt round-robin to the ranks,
// and each rank decodes its tiles from its own z: decode = rnd_P(trilinear x(Ut, Us, Us) upsample
// of channels 0-2, align_corners=False). All decoded tiles are all-gathered (all-to-all with
// variable splits); each rank blends its tiles with the unblended previous tile along t, h, w
//   cur[i] = rnd(rnd(prev[n - e + i] * (1 - i/e)) + rnd(cur[i] * i/e)), i < e (blend extent),
// crops them to the kept size, all-gathers them again and assembles the video (w, then h, then t).
// Shapes: problems/078_magi1_tile_parallel_vae_decode/problem.json.
#include <algorithm>
#include <array>
#include <numeric>

#include "reference/registry.h"

namespace pkb::ref::p078 {
namespace {

// Every rank's latent differs (per-rank seed) and the video is a mosaic of the owners' tiles, so a
// skipped gather leaves other ranks' tiles zero and a wrong owner map takes tiles from the wrong z.
Tensors make_inputs(InputContext& ctx) {
  Tensors in;
  in.set("z", ctx.randn({1, ctx.dim("C"), ctx.dim("Tz"), ctx.dim("Hz"), ctx.dim("Wz")}));
  in.set("tile_sizes",
         ctx.to_device(at::tensor(std::vector<std::int64_t>{
             ctx.dim("Lt"), ctx.dim("Lh"), ctx.dim("Lw"), ctx.dim("Ut"), ctx.dim("Us")})));
  return in;
}

// The all-gather of variable-size flat buffers, done as upstream does: W copies of mine through
// an all-to-all with splits.
at::Tensor all_gather_v(Comm& comm, const at::Tensor& mine,
                        const std::vector<std::int64_t>& lengths) {
  at::Tensor received =
      at::empty({std::accumulate(lengths.begin(), lengths.end(), std::int64_t{0})}, mine.options());
  comm.all_to_all(received, mine.repeat({comm.size()}), lengths,
                  std::vector<std::int64_t>(static_cast<std::size_t>(comm.size()), mine.numel()));
  return received;
}

// cur with its first e slices along dim blended with the last e of prev, rounded as upstream.
at::Tensor blend(const at::Tensor& prev, const at::Tensor& cur, std::int64_t dim,
                 std::int64_t extent) {
  extent = std::min({extent, prev.size(dim), cur.size(dim)});
  if (extent == 0) return cur;
  const at::ScalarType compute = at::promote_types(cur.scalar_type(), at::kFloat);
  std::vector<std::int64_t> shape(5, 1);
  shape[static_cast<std::size_t>(dim)] = extent;
  const at::Tensor ratio = (at::arange(extent, cur.options().dtype(compute)) / extent).view(shape);
  const at::Tensor old_part =
      (prev.narrow(dim, prev.size(dim) - extent, extent).to(compute) * (1 - ratio))
          .to(cur.scalar_type());
  const at::Tensor new_part =
      (cur.narrow(dim, 0, extent).to(compute) * ratio).to(cur.scalar_type());
  at::Tensor out = cur.clone();
  out.narrow(dim, 0, extent)
      .copy_((old_part.to(compute) + new_part.to(compute)).to(cur.scalar_type()));
  return out;
}

// One axis (t, h or w) of the tile grid: tile i starts at latent index i * stride.
struct Axis {
  std::int64_t size, tile, up, stride, extent, keep, count;
  Axis(std::int64_t size_, std::int64_t tile_, std::int64_t up_, double overlap)
      : size(size_),
        tile(tile_),
        up(up_),
        stride(static_cast<std::int64_t>(static_cast<double>(tile) * (1 - overlap))),
        extent(static_cast<std::int64_t>(static_cast<double>(tile * up) * overlap)),
        keep(tile * up - extent),
        count((size + stride - 1) / stride) {}
  std::int64_t latent(std::int64_t i) const { return std::min(tile, size - i * stride); }
};

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& z = in.at("z");
  const at::Tensor sizes = in.at("tile_sizes").to(at::kCPU);
  auto size_at = [&sizes](int i) { return sizes[i].item<std::int64_t>(); };
  const double temporal = scalars.at("temporal_tile_overlap_factor");
  const double spatial = scalars.at("spatial_tile_overlap_factor");
  const std::array<Axis, 3> axes = {Axis(z.size(2), size_at(0), size_at(3), temporal),
                                    Axis(z.size(3), size_at(1), size_at(4), spatial),
                                    Axis(z.size(4), size_at(2), size_at(4), spatial)};
  // Tile n = (t * count_h + h) * count_w + w: its grid index, latent numel, decoded and kept
  // shapes.
  const std::int64_t n_tiles = axes[0].count * axes[1].count * axes[2].count;
  const std::int64_t step[3] = {axes[1].count * axes[2].count, axes[2].count, 1};
  std::vector<std::array<std::int64_t, 3>> index(n_tiles);
  std::vector<std::int64_t> numel(n_tiles, 1);
  std::vector<std::vector<std::int64_t>> decoded(n_tiles, {1, 3}), kept(n_tiles, {1, 3});
  for (std::int64_t n = 0; n < n_tiles; ++n)
    for (int a = 0; a < 3; ++a) {
      index[n][a] = n / step[a] % axes[a].count;
      const std::int64_t latent = axes[a].latent(index[n][a]);
      numel[n] *= latent;
      decoded[n].push_back(latent * axes[a].up);
      kept[n].push_back(std::min(axes[a].keep, latent * axes[a].up));
    }
  // Largest tiles first (stable), dealt round-robin.
  std::vector<std::int64_t> order(n_tiles);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int64_t x, std::int64_t y) { return numel[x] > numel[y]; });
  std::vector<std::vector<std::int64_t>> owned(static_cast<std::size_t>(comm.size()));
  for (std::size_t p = 0; p < order.size(); ++p) owned[p % owned.size()].push_back(order[p]);
  const auto& mine = owned[static_cast<std::size_t>(comm.rank())];

  // Every rank's tiles (my_tiles: mine, in order), as a list indexed by tile.
  auto gather_tiles = [&](const std::vector<at::Tensor>& my_tiles,
                          const std::vector<std::vector<std::int64_t>>& shapes) {
    std::vector<std::int64_t> lengths;
    for (const auto& tiles : owned) {
      lengths.push_back(0);
      for (std::int64_t n : tiles) lengths.back() += c10::multiply_integers(shapes[n]);
    }
    std::vector<at::Tensor> flat{at::empty({0}, z.options())};
    for (const auto& t : my_tiles) flat.push_back(t.reshape(-1));
    const at::Tensor all = all_gather_v(comm, at::cat(flat), lengths);
    std::vector<at::Tensor> result(n_tiles);
    std::int64_t offset = 0;
    for (const auto& tiles : owned)
      for (std::int64_t n : tiles) {
        result[n] = all.narrow(0, offset, c10::multiply_integers(shapes[n])).view(shapes[n]);
        offset += result[n].numel();
      }
    return result;
  };

  const at::ScalarType compute = at::promote_types(z.scalar_type(), at::kFloat);
  std::vector<at::Tensor> my_decoded;
  for (std::int64_t n : mine) {
    at::Tensor crop = z.narrow(1, 0, 3).to(compute);
    for (int a = 0; a < 3; ++a)
      crop = crop.narrow(2 + a, index[n][a] * axes[a].stride, axes[a].latent(index[n][a]));
    my_decoded.push_back(
        at::upsample_trilinear3d(crop, {decoded[n][2], decoded[n][3], decoded[n][4]}, false,
                                 static_cast<double>(axes[0].up), static_cast<double>(axes[1].up),
                                 static_cast<double>(axes[2].up))
            .to(z.scalar_type()));
  }
  const std::vector<at::Tensor> all_decoded = gather_tiles(my_decoded, decoded);

  std::vector<at::Tensor> my_blended;
  for (std::int64_t n : mine) {
    at::Tensor cur = all_decoded[n];
    for (int a = 0; a < 3; ++a)
      if (index[n][a] > 0) cur = blend(all_decoded[n - step[a]], cur, 2 + a, axes[a].extent);
    for (int a = 0; a < 3; ++a) cur = cur.narrow(2 + a, 0, kept[n][2 + a]);
    my_blended.push_back(cur);
  }
  const std::vector<at::Tensor> all_blended = gather_tiles(my_blended, kept);

  // Every tile but the last along an axis is cropped to `keep`, so tile i starts at i * keep.
  at::Tensor video = at::zeros(
      {1, 3, z.size(2) * axes[0].up, z.size(3) * axes[1].up, z.size(4) * axes[2].up}, z.options());
  for (std::int64_t n = 0; n < n_tiles; ++n) {
    at::Tensor place = video;
    for (int a = 0; a < 3; ++a)
      place = place.narrow(2 + a, index[n][a] * axes[a].keep, kept[n][2 + a]);
    place.copy_(all_blended[n]);
  }
  return {{"video", video}};
}

}  // namespace

PKB_REGISTER_REFERENCE("078_magi1_tile_parallel_vae_decode", make_inputs, solve);

}  // namespace pkb::ref::p078
