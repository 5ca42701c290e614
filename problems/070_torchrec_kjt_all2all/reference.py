# pkb problem 070_torchrec_kjt_all2all: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(lengths: torch.Tensor, values: torch.Tensor, key_splits: torch.Tensor):
    """TorchRec's KeyedJaggedTensor all-to-all (equal batch sizes, no weights).

    lengths: (F*B,) int64, feature-major: lengths[f*B + b] values belong to feature f, sample b.
    values: (capacity,) int64; its first sum(lengths) entries are the ids in (f, b) order, the
    rest is padding. key_splits: (W,) int64; rank d owns the k_d = key_splits[d] consecutive
    features starting at sum(key_splits[:d]).
      1. Per destination d: len_split[d] = k_d*B, val_split[d] = the number of values of d's
         features. all_to_all_single of the (W, 3) matrix of rows (len_split[d], val_split[d], B):
         row s of the result is what source s sends here and its batch size.
      2. all_to_all_single of the lengths (send splits len_split) and of the values (send splits
         val_split; receive splits from the metadata), both asynchronous, then both awaited.
      3. The received lengths are ordered [source s][local feature f][b]; reorder to
         [f][s][b], moving each (s, f) segment of values (its B samples' values are contiguous)
         the same way.
    Returns (recv_lengths (k*W*B,), recv_values (20*k*W*B,) with -1 after the valid entries,
    recv_values_count (), stride () = sum of the sources' batch sizes, stride_per_rank (W,)),
    with k = key_splits[rank]; every output is int64.
    """
    world, rank = dist.get_world_size(), dist.get_rank()
    splits = key_splits.tolist()
    batch = lengths.numel() // sum(splits)
    per_feature = lengths.view(-1, batch).sum(dim=1)
    len_split = [k * batch for k in splits]
    val_split, start = [], 0
    for k in splits:
        val_split.append(int(per_feature[start:start + k].sum()))
        start += k

    meta = torch.tensor([[len_split[d], val_split[d], batch] for d in range(world)],
                        dtype=torch.int64, device=lengths.device)
    recv_meta = torch.empty_like(meta)
    dist.all_to_all_single(recv_meta, meta)

    mine = splits[rank]
    recv_lengths = torch.empty(world * mine * batch, dtype=torch.int64, device=lengths.device)
    recv_val_split = recv_meta[:, 1].tolist()
    received_values = torch.empty(sum(recv_val_split), dtype=torch.int64, device=values.device)
    requests = [
        dist.all_to_all_single(recv_lengths, lengths, [mine * batch] * world, len_split,
                               async_op=True),
        dist.all_to_all_single(received_values, values[:sum(val_split)].contiguous(),
                               recv_val_split, val_split, async_op=True),
    ]
    for request in requests:
        request.wait()

    by_source = recv_lengths.view(world, mine, batch)
    segments = torch.split(received_values, by_source.sum(dim=2).reshape(-1).tolist())  # s*k + f
    out_lengths = by_source.transpose(0, 1).reshape(-1)
    out_values = torch.cat([segments[s * mine + f] for f in range(mine) for s in range(world)])

    padded = torch.full((20 * mine * world * batch,), -1, dtype=torch.int64, device=values.device)
    padded[:out_values.numel()] = out_values
    count = torch.tensor(out_values.numel(), dtype=torch.int64, device=values.device)
    stride_per_rank = recv_meta[:, 2].contiguous()
    return out_lengths, padded, count, stride_per_rank.sum(), stride_per_rank
