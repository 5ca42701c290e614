# pkb problem 078_magi1_tile_parallel_vae_decode: the PyTorch reference (shapes and dtypes:
# problem.json).
import math

import torch
import torch.distributed as dist
import torch.nn.functional as F


def all_gather_v(mine, lengths):
    """All-gather of flat buffers of different lengths (rank s sends lengths[s] elements): W
    copies of mine through all_to_all_single with splits. Returns the buffers concatenated in
    rank order."""
    world = dist.get_world_size()
    received = torch.empty(sum(lengths), dtype=mine.dtype, device=mine.device)
    dist.all_to_all_single(received, mine.repeat(world), output_split_sizes=lengths,
                           input_split_sizes=[mine.numel()] * world)
    return received


def blend(prev, cur, dim, extent):
    """cur with its first e slices along dim blended with the last e slices of prev, e =
    min(extent, both sizes): cur[i] = rnd(rnd(prev[n - e + i] * (1 - i/e)) + rnd(cur[i] * i/e)),
    each product and the sum computed in fp32 and rounded to cur's dtype; the ratio i/e and
    1 - i/e are fp32 values (fp32 division, then fp32 subtraction)."""
    extent = min(extent, prev.shape[dim], cur.shape[dim])
    out = cur.clone()
    ratios = torch.arange(extent, dtype=torch.float32, device=cur.device) / extent
    for i in range(extent):
        ratio = ratios[i]
        old = (prev.select(dim, prev.shape[dim] - extent + i).float() * (1 - ratio)).to(cur.dtype)
        new = (cur.select(dim, i).float() * ratio).to(cur.dtype)
        out.select(dim, i).copy_((old.float() + new.float()).to(cur.dtype))
    return out


def solution(z, tile_sizes, spatial_tile_overlap_factor: float, temporal_tile_overlap_factor: float):
    """Tile-parallel decode of a latent video z: [1, C, Tz, Hz, Wz] (run precision, different on
    every rank). tile_sizes (int64): [Lt, Lh, Lw, Ut, Us], latent tile sizes and the temporal and
    spatial upsampling factors.

    Per axis a (t, h, w): overlap f (temporal / spatial factor), stride = floor(L * (1 - f)), blend
    extent e = floor(L * up * f), kept size = L * up - e, tile count = ceil(size / stride). Tile
    (t, h, w), flat index (t * n_h + h) * n_w + w, is the latent crop starting at index * stride of
    length up to L.
    1. Ownership: sort the tiles by latent element count, descending, ties in index order; rank q
       owns sorted positions q, q + W, q + 2W, ...
    2. Each rank decodes its tiles from its own z: channels 0-2, trilinear upsampling by
       (Ut, Us, Us) with align_corners=False in fp32, rounded to the run precision.
    3. All-gather every decoded tile (variable sizes).
    4. Each rank blends its tiles: along t, then h, then w, with the *unblended* decoded previous
       tile along that axis (if any), then crops to the kept sizes.
    5. All-gather the blended tiles; assemble by concatenating along w, then h, then t.
    Returns video: [1, 3, Tz * Ut, Hz * Us, Wz * Us], the same on every rank.
    """
    world, rank = dist.get_world_size(), dist.get_rank()
    lt, lh, lw, ut, us = tile_sizes.cpu().tolist()
    tile, up = [lt, lh, lw], [ut, us, us]
    overlap = [temporal_tile_overlap_factor, spatial_tile_overlap_factor, spatial_tile_overlap_factor]
    stride = [int(tile[a] * (1 - overlap[a])) for a in range(3)]
    extent = [int(tile[a] * up[a] * overlap[a]) for a in range(3)]
    keep = [tile[a] * up[a] - extent[a] for a in range(3)]
    count = [math.ceil(z.shape[2 + a] / stride[a]) for a in range(3)]

    tiles = [(t, h, w) for t in range(count[0]) for h in range(count[1]) for w in range(count[2])]
    latent = [[min(tile[a], z.shape[2 + a] - index[a] * stride[a]) for a in range(3)] for index in tiles]
    decoded_shape = [[1, 3] + [size[a] * up[a] for a in range(3)] for size in latent]
    kept_shape = [[1, 3] + [min(keep[a], size[a] * up[a]) for a in range(3)] for size in latent]
    order = sorted(range(len(tiles)), key=lambda n: -math.prod(latent[n]))  # stable
    owned = [order[q::world] for q in range(world)]

    def gather_tiles(my_tiles, shapes):
        lengths = [sum(math.prod(shapes[n]) for n in owned[q]) for q in range(world)]
        flat = torch.cat([z.new_empty(0)] + [t.reshape(-1) for t in my_tiles])
        everything = all_gather_v(flat, lengths)
        result, offset = [None] * len(tiles), 0
        for q in range(world):
            for n in owned[q]:
                numel = math.prod(shapes[n])
                result[n] = everything[offset:offset + numel].view(shapes[n])
                offset += numel
        return result

    my_decoded = []
    for n in owned[rank]:
        (t, h, w), (st, sh, sw) = tiles[n], latent[n]
        crop = z[:, :3, t * stride[0]:t * stride[0] + st, h * stride[1]:h * stride[1] + sh,
                 w * stride[2]:w * stride[2] + sw]
        my_decoded.append(F.interpolate(crop.float(), scale_factor=tuple(float(u) for u in up),
                                        mode="trilinear", align_corners=False).to(z.dtype))
    decoded = gather_tiles(my_decoded, decoded_shape)

    step = [count[1] * count[2], count[2], 1]
    my_blended = []
    for n in owned[rank]:
        cur = decoded[n]
        for a in range(3):
            if tiles[n][a] > 0:
                cur = blend(decoded[n - step[a]], cur, 2 + a, extent[a])
        kt, kh, kw = kept_shape[n][2:]
        my_blended.append(cur[:, :, :kt, :kh, :kw])
    blended = gather_tiles(my_blended, kept_shape)

    frames = []
    for t in range(count[0]):
        rows = []
        for h in range(count[1]):
            rows.append(torch.cat([blended[(t * count[1] + h) * count[2] + w] for w in range(count[2])], dim=4))
        frames.append(torch.cat(rows, dim=3))
    return torch.cat(frames, dim=2).contiguous()
