# The Python reference tests/e2e/add_problem_test.sh hands to `pkb add-problem --from`.
import torch
import torch.distributed as dist


def solution(x: torch.Tensor, scale: float = 2.0):
    """Scale x by `scale` and sum over ranks."""
    y = (x.float() * scale).to(x.dtype)
    dist.all_reduce(y)
    return y
