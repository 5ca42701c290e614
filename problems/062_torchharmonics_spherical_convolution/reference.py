# pkb problem 062_torchharmonics_spherical_convolution: the PyTorch reference (shapes, groups:
# problem.json).
import torch
import torch.distributed as dist


def solution(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
             psi_indices: torch.Tensor, psi_values: torch.Tensor, groups: dict) -> torch.Tensor:
    """Distributed DISCO spherical convolution (torch-harmonics) on an azimuth x polar rank grid.

    groups["azimuth"]: A contiguous ranks (group rank a); groups["polar"]: P_ ranks strided by A
    (group rank p). Rank (p, a) holds latitudes p*Hl ... and longitudes a*Wl ... of the global
    field X[B, C, H, Wn] (H = P_ * Hl, Wn = A * Wl); Cc = C / A.
    x: (B, C, Hl, Wl) fp32; weight: (C_out, C, K) and bias: (C_out,), this rank's own;
    psi_indices (3, nnz) int64 and psi_values (nnz,) fp32: the sparse COO filter psi [K, H, Hl*Wn]
    of this rank, entry (k, o, i*Wn + m).
    1. azimuth all_to_all: channel block j (Cc channels) goes to azimuth peer j; the received
       longitude slabs are concatenated in source order -> Xloc (B, Cc, Hl, Wn)
    2. Y[b, c, k, o, lo] = sum_{i, m} psi[k, o, i*Wn + m] * Xloc[b, c, i, (m + lo) mod Wn]
       for every output latitude o < H and longitude lo < Wn (Wn sparse products, rolling the
       input by one longitude each time)
    3. all_reduce SUM of Y over the polar group, then keep latitudes p*Hl ... (p+1)*Hl
    4. azimuth all_to_all back: longitude block j goes to peer j; the received channel blocks are
       concatenated in source order -> U (B, C, K, Hl, Wl)
    5. out[b, q, o, l] = bias[q] + sum_{c, k} weight[q, c, k] * U[b, c, k, o, l]
    Returns out: (B, C_out, Hl, Wl) fp32.
    """
    azimuth, polar = groups["azimuth"], groups["polar"]
    n_az, n_polar = dist.get_world_size(azimuth), dist.get_world_size(polar)
    p = dist.get_rank(polar)
    batch, channels, n_lat_local, n_lon_local = x.shape
    c_out, _, kernel = weight.shape
    n_lat, n_lon = n_lat_local * n_polar, n_lon_local * n_az
    cc = channels // n_az

    # 1. channels for longitudes
    if n_az > 1:
        send = [block.contiguous() for block in torch.split(x, cc, dim=1)]
        recv = [x.new_empty(batch, cc, n_lat_local, n_lon_local) for _ in range(n_az)]
        dist.all_to_all(recv, send, group=azimuth)
        x_local = torch.cat(recv, dim=3)
    else:
        x_local = x

    # 2. DISCO contraction: psi as a (K*H, Hl*Wn) sparse matrix times the rolled input
    rows = psi_indices[0] * n_lat + psi_indices[1]
    psi = torch.sparse_coo_tensor(torch.stack([rows, psi_indices[2]]), psi_values,
                                  (kernel * n_lat, n_lat_local * n_lon)).coalesce()
    y = x.new_empty(kernel * n_lat, batch * cc, n_lon)
    for lo in range(n_lon):
        rolled = torch.roll(x_local, shifts=-lo, dims=3)  # rolled[..., m] = x_local[..., m + lo]
        y[:, :, lo] = torch.sparse.mm(psi, rolled.reshape(batch * cc, -1).t())
    y = y.reshape(kernel, n_lat, batch, cc, n_lon).permute(2, 3, 0, 1, 4).contiguous()

    # 3. sum the latitude blocks' contributions, keep my output latitudes
    if n_polar > 1:
        dist.all_reduce(y, op=dist.ReduceOp.SUM, group=polar)
    y = y[:, :, :, p * n_lat_local:(p + 1) * n_lat_local]

    # 4. longitudes back for channels
    if n_az > 1:
        send = [block.contiguous() for block in torch.split(y, n_lon_local, dim=4)]
        recv = [x.new_empty(batch, cc, kernel, n_lat_local, n_lon_local) for _ in range(n_az)]
        dist.all_to_all(recv, send, group=azimuth)
        u = torch.cat(recv, dim=1)
    else:
        u = y

    # 5. mix channels and kernel taps with this rank's weight and bias
    mixed = torch.matmul(weight.reshape(c_out, channels * kernel),
                         u.reshape(batch, channels * kernel, n_lat_local * n_lon_local))
    out = mixed + bias.reshape(1, c_out, 1)
    return out.reshape(batch, c_out, n_lat_local, n_lon_local)
