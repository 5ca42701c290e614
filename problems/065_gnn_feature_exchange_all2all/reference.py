# pkb problem 065_gnn_feature_exchange_all2all: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(local_features: torch.Tensor, seed_inverse_ids: torch.Tensor,
             counts_sent: torch.Tensor, counts_received: torch.Tensor) -> torch.Tensor:
    """Feature exchange of a distributed GNN, with rank-relative peer lists.

    local_features: (Sd, H); seed_inverse_ids: (T,) int64 in [0, Sd); counts_sent,
    counts_received: (W,) int64. On rank r, list position i names peer (r + i) mod W:
      g   = local_features[seed_inverse_ids]                         (T, H)
      g is cut into W chunks of counts_received[i] rows; chunk i goes to peer (r + i) mod W
      out is cut into W chunks of counts_sent[i] rows; chunk i comes from peer (r + i) mod W
    So out chunk c of rank d = g chunk (W - c) mod W of rank (d + c) mod W.
    """
    rank, world = dist.get_rank(), dist.get_world_size()
    gathered = local_features[seed_inverse_ids]
    send_chunks = list(torch.split(gathered, counts_received.tolist()))
    out = local_features.new_empty((int(counts_sent.sum()), local_features.shape[1]))
    recv_chunks = list(torch.split(out, counts_sent.tolist()))

    # torch.distributed's all_to_all indexes by absolute rank: slot p is peer p.
    inputs = [send_chunks[(p - rank) % world].contiguous() for p in range(world)]
    outputs = [torch.empty_like(recv_chunks[(p - rank) % world]) for p in range(world)]
    dist.all_to_all(outputs, inputs)
    for p in range(world):
        recv_chunks[(p - rank) % world].copy_(outputs[p])
    return out
