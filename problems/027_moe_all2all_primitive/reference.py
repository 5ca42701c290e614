# pkb problem 027_moe_all2all_primitive: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(x: torch.Tensor, in_splits: torch.Tensor, out_splits: torch.Tensor) -> torch.Tensor:
    """The MoE token all-to-all with per-peer split sizes.

    x: (M, N); in_splits, out_splits: (W,) int64, each summing to M. Rank r sends the consecutive
    blocks of x, in_splits[d] rows to rank d (d ascending), and receives out_splits[s] rows from
    rank s (rank s's in_splits[r]). Returns y: (sum(out_splits), N), the received blocks in
    source-rank order.
    """
    send = in_splits.tolist()
    receive = out_splits.tolist()
    y = x.new_empty((sum(receive), x.shape[1]))
    dist.all_to_all_single(y, x.contiguous(), output_split_sizes=receive, input_split_sizes=send)
    return y
