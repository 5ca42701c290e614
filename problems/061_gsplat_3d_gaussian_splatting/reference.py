# pkb problem 061_gsplat_3d_gaussian_splatting: the PyTorch reference (shapes: problem.json).
import torch
import torch.distributed as dist


def _matmul(a, b):
    """Product of small matrices stored as nested lists of tensors (entries broadcast);
    c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + ..., summed left to right."""
    out = []
    for row in a:
        out_row = []
        for j in range(len(b[0])):
            acc = row[0] * b[0][j]
            for k in range(1, len(b)):
                acc = acc + row[k] * b[k][j]
            out_row.append(acc)
        out.append(out_row)
    return out


def _transpose(a):
    return [list(column) for column in zip(*a)]


def solution(means, quats, scales, opacities, colors, viewmats, Ks,
             image_width, image_height, eps2d, near_plane, far_plane):
    """Distributed 3-D Gaussian projection (gsplat): every rank owns one pinhole camera and n
    Gaussians; each Gaussian is projected into every rank's camera and the visible
    (camera, Gaussian) pairs are sent to the camera's rank.

    means (n, 3), quats (n, 4) as (w, x, y, z), not normalised, scales (n, 3), opacities (n,),
    colors (n, 3), viewmats (1, 4, 4) world-to-camera, Ks (1, 3, 3) intrinsics; all fp32.
    1. all_gather the Gaussian counts n_s and the cameras (16 view + 9 K entries per rank)
    2. per Gaussian: q = quat / max(|quat|, 1e-12), R = R(q), Sigma = (R diag(s)) (R diag(s))^T
    3. per (camera j, Gaussian i), with V_j = [R_j | t_j]:
       mu_c = R_j mu + t_j = (tx, ty, tz); Sigma_c = R_j Sigma R_j^T;
       tan_x = 0.5 w / fx;
       tx' = tz * clamp(tx / tz, -(cx / fx + 0.3 tan_x), (w - cx) / fx + 0.3 tan_x)
       (ty' likewise); J = [[fx / tz, 0, -fx tx' / tz^2], [0, fy / tz, -fy ty' / tz^2]];
       Sigma2 = J Sigma_c J^T + eps2d I; det = max(det(Sigma2), 1e-10);
       conic = (S11, -(S01 + S10) / 2, S00) / det; mean2d = (K_j mu_c)[:2] / tz (unclamped);
       radius = 3.33 sqrt((S00, S11)); depth = tz
    4. a pair is kept iff near < tz < far and the box mean2d +- ceil(radius) overlaps the image;
       kept pairs are packed in (camera, Gaussian) order
    5. all_to_all the per-camera pair counts, then all_to_all (variable splits) the pairs to the
       camera's rank, with camera id 0 (one camera per rank) and gaussian id i + sum_{s < src} n_s
    Returns, on rank d, the R_d received pairs in source-rank order, padded to the capacity
    W * n (every rank has n Gaussians): camera_ids, gaussian_ids (int64, padding -1),
    radii (.., 2), means2d (.., 2),
    depths, conics (.., 3), pair_opacities, pair_colors (.., 3) (fp32, padding 0), and
    count = R_d.
    """
    world, rank = dist.get_world_size(), dist.get_rank()
    n = means.shape[0]
    device = means.device

    counts = [torch.zeros(1, dtype=torch.int64, device=device) for _ in range(world)]
    dist.all_gather(counts, torch.tensor([n], dtype=torch.int64, device=device))
    offset = sum(int(c.item()) for c in counts[:rank])
    capacity = world * n  # at most every Gaussian of every rank is visible in my camera

    row = torch.cat([viewmats.reshape(-1), Ks.reshape(-1)]).contiguous()
    rows = [torch.empty_like(row) for _ in range(world)]
    dist.all_gather(rows, row)
    cams = torch.stack(rows)  # (W, 25)

    def cam(k):  # one camera entry for every camera, as a (W, 1) column
        return cams[:, k:k + 1]

    # Covariance of every Gaussian, as (1, n) rows.
    w, x, y, z = [quats[:, k] for k in range(4)]
    norm = torch.clamp(torch.sqrt(w * w + x * x + y * y + z * z), min=1e-12)
    w, x, y, z = w / norm, x / norm, y / norm, z / norm
    rot = [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
           [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
           [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
    a = [[rot[i][k] * scales[:, k] for k in range(3)] for i in range(3)]
    sigma = [[entry.unsqueeze(0) for entry in r] for r in _matmul(a, _transpose(a))]
    mu = [[means[:, k].unsqueeze(0)] for k in range(3)]

    # Every (camera, Gaussian) pair, as (W, n) tensors.
    cam_rot = [[cam(4 * i + j) for j in range(3)] for i in range(3)]
    t = _matmul(cam_rot, mu)
    tx, ty, tz = [t[i][0] + cam(4 * i + 3) for i in range(3)]
    sigma_c = _matmul(_matmul(cam_rot, sigma), _transpose(cam_rot))

    fx, fy, cx, cy = cam(16), cam(20), cam(18), cam(21)
    width = torch.full_like(fx, float(image_width))
    height = torch.full_like(fy, float(image_height))
    tan_x = torch.full_like(fx, 0.5 * image_width) / fx
    tan_y = torch.full_like(fy, 0.5 * image_height) / fy
    lim_x_pos, lim_x_neg = (width - cx) / fx + 0.3 * tan_x, cx / fx + 0.3 * tan_x
    lim_y_pos, lim_y_neg = (height - cy) / fy + 0.3 * tan_y, cy / fy + 0.3 * tan_y
    tx_c = tz * torch.minimum(torch.maximum(tx / tz, -lim_x_neg), lim_x_pos)
    ty_c = tz * torch.minimum(torch.maximum(ty / tz, -lim_y_neg), lim_y_pos)
    zero = torch.zeros_like(tz)
    jac = [[fx / tz, zero, -(fx * tx_c) / (tz * tz)],
           [zero, fy / tz, -(fy * ty_c) / (tz * tz)]]
    sigma2 = _matmul(_matmul(jac, sigma_c), _transpose(jac))

    mean_x = (cam(16) * tx + cam(17) * ty + cam(18) * tz) / tz
    mean_y = (cam(19) * tx + cam(20) * ty + cam(21) * tz) / tz
    s00, s01, s10, s11 = sigma2[0][0] + eps2d, sigma2[0][1], sigma2[1][0], sigma2[1][1] + eps2d
    det = torch.clamp(s00 * s11 - s01 * s10, min=1e-10)
    conic = [s11 / det, -((s01 + s10) * 0.5) / det, s00 / det]
    radius_x, radius_y = 3.33 * torch.sqrt(s00), 3.33 * torch.sqrt(s11)
    box_x, box_y = torch.ceil(radius_x), torch.ceil(radius_y)
    keep = ((tz > near_plane) & (tz < far_plane) & (mean_x + box_x > 0)
            & (mean_x - box_x < image_width) & (mean_y + box_y > 0)
            & (mean_y - box_y < image_height))

    # Pack the kept pairs in (camera, Gaussian) order and send each camera's pairs to its rank.
    expand = lambda v: v.unsqueeze(0).expand(world, n)  # noqa: E731
    fields = torch.stack([mean_x, mean_y, tz, conic[0], conic[1], conic[2], expand(opacities),
                          expand(colors[:, 0]), expand(colors[:, 1]), expand(colors[:, 2])], dim=-1)
    radii = torch.stack([radius_x, radius_y], dim=-1)
    gaussian = torch.arange(n, dtype=torch.int64, device=device) + offset
    gaussian = gaussian.unsqueeze(0).expand(world, n)
    ids = torch.stack([torch.zeros_like(gaussian), gaussian], dim=-1)
    send_counts = keep.sum(dim=1).to(torch.int64)
    recv_counts = torch.empty_like(send_counts)
    dist.all_to_all_single(recv_counts, send_counts)
    send_splits, recv_splits = send_counts.tolist(), recv_counts.tolist()
    received = int(recv_counts.sum().item())

    def exchange(values):
        values = values[keep].contiguous()
        out = values.new_empty((received,) + tuple(values.shape[1:]))
        dist.all_to_all_single(out, values, recv_splits, send_splits)
        return out

    fields, radii, ids = exchange(fields), exchange(radii), exchange(ids)

    def pad(values, fill):
        out = values.new_full((capacity,) + tuple(values.shape[1:]), fill)
        out[:received] = values
        return out

    return (pad(ids[:, 0], -1), pad(ids[:, 1], -1), pad(radii, 0), pad(fields[:, 0:2], 0),
            pad(fields[:, 2], 0), pad(fields[:, 3:6], 0), pad(fields[:, 6], 0),
            pad(fields[:, 7:10], 0), torch.tensor(received, dtype=torch.int64, device=device))
