# pkb problem 044_quantized_grad_allreduce: the PyTorch reference (shapes: problem.json).
import torch
import torch.nn.functional as F
import torch.distributed as dist


def solution(flat_grad: torch.Tensor, block_size: int) -> torch.Tensor:
    """int8 block quantization of a gradient, then an fp32 all-reduce of the dequantized values.

    flat_grad: (n,), this rank's gradient in P.
    1. zero-pad to a multiple of block_size and view as (n_blocks, block_size)
    2. scale[b] = max(max_i |x[b, i]|, 1e-8) / 127                      (fp32)
    3. q[b, i] = clamp(round_half_to_even(fp32(x[b, i]) / scale[b]), -127, 127), as int8
    4. d[b, i] = fp32(q[b, i]) * scale[b], padding dropped                (fp32)
    5. out = P(all_reduce_sum(d) / W)                                    (sum and divide in fp32)
    Returns out: (n,) in flat_grad's dtype, the same on every rank.
    """
    n = flat_grad.numel()
    pad = (-n) % block_size
    blocks = F.pad(flat_grad.float(), (0, pad)).view(-1, block_size)
    # Divide by tensors: a GPU divides by a Python scalar as a multiply by its reciprocal.
    levels = torch.full((), 127.0, dtype=torch.float32, device=blocks.device)
    scale = blocks.abs().amax(dim=1, keepdim=True).clamp_min(1e-8) / levels
    q = torch.clamp(torch.round(blocks / scale), -127, 127).to(torch.int8)
    dequantized = (q.float() * scale).reshape(-1)[:n].contiguous()
    dist.all_reduce(dequantized, op=dist.ReduceOp.SUM)
    world = torch.full((), float(dist.get_world_size()), dtype=torch.float32,
                       device=blocks.device)
    return (dequantized / world).to(flat_grad.dtype)
