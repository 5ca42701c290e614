# pkb problem 077_magi1_cso_async_attention: the PyTorch reference (shapes and dtypes:
# problem.json).
import torch
import torch.distributed as dist


def attention(q, k, v):
    """q: [N, h, D], k, v: [L, h, D] -> softmax(q k^T / sqrt(D)) v, [N, h, D]: scores, softmax and
    accumulation in fp32, rounded once to q's dtype. No mask."""
    scale = 1.0 / q.shape[-1] ** 0.5
    scores = torch.matmul(q.float().transpose(0, 1), k.float().permute(1, 2, 0)) * scale
    out = torch.matmul(torch.softmax(scores, dim=-1), v.float().transpose(0, 1))
    return out.transpose(0, 1).to(q.dtype)


def solution(query, key_value, k_ranges):
    """MAGI-1 context-shuffle-overlap (CSO) attention over all ranks.

    query: [R*spb, Hq, D] and key_value: [R*spb, Hkv, 2D] (keys | values) in the run precision:
    this rank's tokens, R ranges of spb tokens each (local token i*spb + u is token u of range i).
    k_ranges: [R, 2] int64, [[i*c, (i+1)*c]]: the rows of range i in the clipped, range-major KV;
    c is the number of KV rows kept per range. W divides Hq; Hkv divides W or W divides Hkv.
    1. KV: if Hkv < W, repeat each KV head W/Hkv times. All-to-all: KV head block d of all my
       tokens goes to rank d. Regroup the received rows by range (range i = sub-block i of every
       source, in source order) and keep the first c rows of each range.
    2. Queries: all-to-all, block d = my tokens of every range, query-head block d. Each rank now
       holds the W*spb tokens of every range (source-major) for its Hq/W query heads.
    3. For each range i: attention over rows k_ranges[i] of the clipped KV (keys = first D
       features, values = last D), KV heads repeated to the query heads (query head h uses KV
       head h*Hkv/Hq), scale 1/sqrt(D).
    4. All-to-all the outputs back: block d = the outputs of rank d's tokens.
    Upstream pipelines steps 2-4 per range (the queries of range i+1 and the outputs of range i-1
    travel together while range i is computed); the result is the same.
    Returns out: [R*spb, Hq, D].
    """
    world = dist.get_world_size()
    tokens, q_heads, head_dim = query.shape
    n_ranges = k_ranges.shape[0]
    per_range = tokens // n_ranges
    ranges = k_ranges.cpu().tolist()
    clip = ranges[0][1] - ranges[0][0]

    kv = key_value
    if kv.shape[1] < world:
        kv = kv.repeat_interleave(world // kv.shape[1], dim=1)
    kv_local, q_local = kv.shape[1] // world, q_heads // world
    kv_send = torch.stack(torch.chunk(kv, world, dim=1)).contiguous()
    kv_recv = torch.empty_like(kv_send)
    dist.all_to_all_single(kv_recv, kv_send)
    kv_by_range = (kv_recv.view(world, n_ranges, per_range, kv_local, 2 * head_dim).transpose(0, 1)
                   .reshape(n_ranges, world * per_range, kv_local, 2 * head_dim)[:, :clip]
                   .reshape(n_ranges * clip, kv_local, 2 * head_dim))

    q_send = query.view(n_ranges, per_range, world, q_local, head_dim).permute(2, 0, 1, 3, 4).contiguous()
    q_recv = torch.empty_like(q_send)
    dist.all_to_all_single(q_recv, q_send)

    outs = []
    for i, (start, end) in enumerate(ranges):
        kv_i = kv_by_range[start:end].repeat_interleave(q_local // kv_local, dim=1)
        q_i = q_recv[:, i].reshape(world * per_range, q_local, head_dim)
        out_i = attention(q_i, kv_i[..., :head_dim], kv_i[..., head_dim:])
        outs.append(out_i.view(world, per_range, q_local, head_dim))

    out_send = torch.stack(outs, dim=1).contiguous()
    out_recv = torch.empty_like(out_send)
    dist.all_to_all_single(out_recv, out_send)
    return out_recv.permute(1, 2, 0, 3, 4).reshape(n_ranges * per_range, q_heads, head_dim)
