# pkb problem 046_gemv_decode: the PyTorch reference (shapes: problem.json).
import torch
import torch.distributed as dist


def solution(hidden_states: torch.Tensor, weight_shard: torch.Tensor,
             bias_shard: torch.Tensor) -> torch.Tensor:
    """Vocabulary-parallel logits for decode (ntok is 1 at the benchmark shape: a GEMV).

    hidden_states: (ntok, hid), the same on every rank.
    weight_shard: (V_loc, hid), this rank's rows of the (W * V_loc, hid) projection weight.
    bias_shard: (V_loc,), this rank's slice of the bias.
    local = P(P(hidden_states @ weight_shard^T) + bias_shard)   (GEMM accumulated in fp32)
    Returns logits: (ntok, W * V_loc), the ranks' local logits side by side in rank order.
    """
    local = torch.matmul(hidden_states.float(), weight_shard.float().t()).to(hidden_states.dtype)
    local = local + bias_shard
    parts = [torch.empty_like(local) for _ in range(dist.get_world_size())]
    dist.all_gather(parts, local)
    return torch.cat(parts, dim=1)
