// Distributed 3-D Gaussian projection (gsplat): project every local Gaussian into every rank's
// camera (EWA splatting with eps2d), keep the pairs whose box overlaps the image, and all-to-all
// each camera's pairs to its rank. Math and outputs: problems/061_gsplat_3d_gaussian_splatting/.
// Every step is element-wise, in the order reference.py writes it, so both cull the same pairs.
#include "reference/registry.h"
#include "reference/small_matrix.h"

namespace pkb::ref {
namespace {

using Mat = SmallMatrix;

// Each rank has a random camera pose and focal length, so culling and the per-camera counts
// depend on the camera exchange and differ per destination; Gaussians follow upstream's draws.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t n = ctx.dim("n");
  at::Generator& gen = ctx.generator();
  const auto fp32 = at::TensorOptions().dtype(at::kFloat);
  const auto rand = [&](at::IntArrayRef shape) { return at::rand(shape, gen, fp32); };
  const at::Tensor mx = (rand({n}) - 0.5) * 1.5, my = (rand({n}) - 0.5) * 1.5;
  const at::Tensor means = at::stack({mx, my, rand({n}) * 2 + 2}, 1);
  const at::Tensor quats = at::randn({n, 4}, gen, fp32);
  const at::Tensor scales = rand({n, 3}) * 0.02;
  const at::Tensor opacities = rand({n}) * 0.8 + 0.1;
  const at::Tensor colors = rand({n, 3});
  // Camera: rotation about y by up to +-0.3 rad, translation x, y in [-1, 1), z in [-2.2, 0)
  // (some Gaussians land behind the near plane or outside the image), focal 0.8 * 512 * [0.9, 1.1).
  const at::Tensor pose = rand({5}).to(at::kDouble);
  const double* u = pose.data_ptr<double>();
  const double angle = (u[0] - 0.5) * 0.6;
  const at::Tensor view = at::tensor({std::cos(angle), 0.0, std::sin(angle), (u[1] - 0.5) * 2,  //
                                      0.0, 1.0, 0.0, (u[2] - 0.5) * 2,                          //
                                      -std::sin(angle), 0.0, std::cos(angle), u[3] * -2.2,      //
                                      0.0, 0.0, 0.0, 1.0});
  const double focal = 409.6 * (0.9 + 0.2 * u[4]);
  const at::Tensor k = at::tensor({focal, 0.0, 256.0, 0.0, focal, 256.0, 0.0, 0.0, 1.0});
  return {{"means", ctx.place(means, at::kFloat)},
          {"quats", ctx.place(quats, at::kFloat)},
          {"scales", ctx.place(scales, at::kFloat)},
          {"opacities", ctx.place(opacities, at::kFloat)},
          {"colors", ctx.place(colors, at::kFloat)},
          {"viewmats", ctx.place(view.view({1, 4, 4}), at::kFloat)},
          {"Ks", ctx.place(k.view({1, 3, 3}), at::kFloat)}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& sc) {
  const int world = comm.size(), rank = comm.rank();
  const at::Tensor& means = in.at("means");
  const std::int64_t n = means.size(0);
  const double img_w = sc.at("image_width"), img_h = sc.at("image_height"), eps2d = sc.at("eps2d");
  const auto i64 = means.options().dtype(at::kLong);

  at::Tensor counts = at::empty({world}, i64);
  comm.all_gather(counts, at::full({1}, n, i64));
  const std::int64_t offset = counts.slice(0, 0, rank).sum().item<std::int64_t>();
  const std::int64_t capacity = world * n;  // every rank has n Gaussians
  at::Tensor cams = at::empty({world, 25}, means.options());
  comm.all_gather(cams, at::cat({in.at("viewmats").reshape(-1), in.at("Ks").reshape(-1)}));
  const auto cam = [&](std::int64_t k) { return cams.slice(1, k, k + 1); };  // (W, 1)

  const at::Tensor& q = in.at("quats");
  at::Tensor w = q.select(1, 0), x = q.select(1, 1), y = q.select(1, 2), z = q.select(1, 3);
  const at::Tensor norm = at::clamp_min(at::sqrt(w * w + x * x + y * y + z * z), 1e-12);
  w = w / norm, x = x / norm, y = y / norm, z = z / norm;
  const Mat rot = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                   {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                   {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
  Mat a(3), mu(3), cam_rot(3);
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) {
      a[i].push_back(rot[i][k] * in.at("scales").select(1, k));
      cam_rot[i].push_back(cam(4 * i + k));
    }
  Mat sigma = matmul(a, transpose(a));
  for (auto& row : sigma)
    for (auto& entry : row) entry = entry.unsqueeze(0);
  for (int k = 0; k < 3; ++k) mu[k].push_back(means.select(1, k).unsqueeze(0));

  const Mat t = matmul(cam_rot, mu);  // every (camera, Gaussian) pair: (W, n) tensors
  const at::Tensor tx = t[0][0] + cam(3), ty = t[1][0] + cam(7), tz = t[2][0] + cam(11);
  const Mat sigma_c = matmul(matmul(cam_rot, sigma), transpose(cam_rot));
  const at::Tensor fx = cam(16), fy = cam(20), cx = cam(18), cy = cam(21);
  const at::Tensor tan_x = at::full_like(fx, 0.5 * img_w) / fx;
  const at::Tensor tan_y = at::full_like(fy, 0.5 * img_h) / fy;
  const at::Tensor lim_xp = (at::full_like(fx, img_w) - cx) / fx + tan_x * 0.3;
  const at::Tensor lim_yp = (at::full_like(fy, img_h) - cy) / fy + tan_y * 0.3;
  const at::Tensor lim_xn = cx / fx + tan_x * 0.3, lim_yn = cy / fy + tan_y * 0.3;
  const at::Tensor tx_c = tz * at::minimum(at::maximum(tx / tz, -lim_xn), lim_xp);
  const at::Tensor ty_c = tz * at::minimum(at::maximum(ty / tz, -lim_yn), lim_yp);
  const at::Tensor zero = at::zeros_like(tz);
  const Mat jac = {{fx / tz, zero, -(fx * tx_c) / (tz * tz)},
                   {zero, fy / tz, -(fy * ty_c) / (tz * tz)}};
  const Mat sigma2 = matmul(matmul(jac, sigma_c), transpose(jac));

  const at::Tensor mean_x = (cam(16) * tx + cam(17) * ty + cam(18) * tz) / tz;
  const at::Tensor mean_y = (cam(19) * tx + cam(20) * ty + cam(21) * tz) / tz;
  const at::Tensor s00 = sigma2[0][0] + eps2d, s01 = sigma2[0][1], s10 = sigma2[1][0],
                   s11 = sigma2[1][1] + eps2d;
  const at::Tensor det = at::clamp_min(s00 * s11 - s01 * s10, 1e-10);
  const at::Tensor radius_x = at::sqrt(s00) * 3.33, radius_y = at::sqrt(s11) * 3.33;
  const at::Tensor box_x = at::ceil(radius_x), box_y = at::ceil(radius_y);
  const at::Tensor keep = (tz > sc.at("near_plane")) & (tz < sc.at("far_plane")) &
                          (mean_x + box_x > 0) & (mean_x - box_x < img_w) & (mean_y + box_y > 0) &
                          (mean_y - box_y < img_h);

  const auto expand = [&](const at::Tensor& v) { return v.unsqueeze(0).expand({world, n}); };
  const at::Tensor& colors = in.at("colors");
  const at::Tensor fields =
      at::stack({mean_x, mean_y, tz, s11 / det, -((s01 + s10) * 0.5) / det, s00 / det,
                 expand(in.at("opacities")), expand(colors.select(1, 0)),
                 expand(colors.select(1, 1)), expand(colors.select(1, 2))},
                -1);
  const at::Tensor gaussian = expand(at::arange(n, i64) + offset);
  const at::Tensor ids = at::stack({at::zeros_like(gaussian), gaussian}, -1);

  const at::Tensor send_counts = keep.sum(1).to(at::kLong);
  at::Tensor recv_counts = at::empty_like(send_counts);
  comm.all_to_all(recv_counts, send_counts, {}, {});
  const auto as_vector = [](const at::Tensor& v) {
    const at::Tensor c = v.cpu();
    return std::vector<std::int64_t>(c.data_ptr<std::int64_t>(),
                                     c.data_ptr<std::int64_t>() + c.numel());
  };
  const std::vector<std::int64_t> send_splits = as_vector(send_counts),
                                  recv_splits = as_vector(recv_counts);
  const std::int64_t received = recv_counts.sum().item<std::int64_t>();
  const auto exchange = [&](const at::Tensor& values, double fill) {  // padded to the capacity
    const at::Tensor rows = values.reshape({world * n, -1});
    const at::Tensor packed = rows.index_select(0, keep.reshape(-1).nonzero().squeeze(1));
    std::vector<std::int64_t> shape = values.sizes().slice(1).vec();
    shape[0] = received;
    at::Tensor got = at::empty(shape, packed.options());
    comm.all_to_all(got, packed, recv_splits, send_splits);
    shape[0] = capacity;
    at::Tensor out = at::full(shape, fill, packed.options());
    out.slice(0, 0, received).copy_(got);
    return out;
  };
  const at::Tensor got_fields = exchange(fields, 0), got_ids = exchange(ids, -1);
  return {{"camera_ids", got_ids.select(1, 0).contiguous()},
          {"gaussian_ids", got_ids.select(1, 1).contiguous()},
          {"radii", exchange(at::stack({radius_x, radius_y}, -1), 0)},
          {"means2d", got_fields.slice(1, 0, 2).contiguous()},
          {"depths", got_fields.select(1, 2).contiguous()},
          {"conics", got_fields.slice(1, 3, 6).contiguous()},
          {"pair_opacities", got_fields.select(1, 6).contiguous()},
          {"pair_colors", got_fields.slice(1, 7, 10).contiguous()},
          {"count", at::scalar_tensor(received, i64)}};
}

}  // namespace

PKB_REGISTER_REFERENCE("061_gsplat_3d_gaussian_splatting", make_inputs, solve);

}  // namespace pkb::ref
