# pkb problem 086_tp_muon_orthogonalization: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist

# Quintic Newton-Schulz coefficients (a, b, c), used in turn.
QUINTIC = [(4.0848, -6.8946, 2.9270), (3.9505, -6.3029, 2.6377), (3.7418, -5.5913, 2.3037),
           (2.8769, -3.1427, 1.2046), (2.8366, -3.0525, 1.2012)]


def solution(x: torch.Tensor, steps: int) -> torch.Tensor:
    """Muon orthogonalisation (Newton-Schulz iteration) of a column-sharded matrix.

    x: [R, C/W] bf16, columns [rank * C/W, (rank + 1) * C/W) of a matrix X [R, C]. In fp32:
        Y = X / max(||X||_F, 1e-7)          (the squared norm all-reduced over the ranks)
        repeat `steps` times, with (a, b, c) = QUINTIC[i % 5]:
            G = all_reduce_sum(Y_local @ Y_local^T)      [R, R], the global Gram matrix
            Y_local = a * Y_local + (b * G + c * G @ G) @ Y_local
    Returns y: [R, C/W] bf16, this rank's columns of Y.
    """
    y = x.float()
    norm_sq = (y * y).sum()
    dist.all_reduce(norm_sq, op=dist.ReduceOp.SUM)
    y = y / torch.clamp(norm_sq.sqrt(), min=1e-7)
    for step in range(steps):
        a, b, c = QUINTIC[step % len(QUINTIC)]
        gram = torch.matmul(y, y.t())
        dist.all_reduce(gram, op=dist.ReduceOp.SUM)
        update = b * gram + c * torch.matmul(gram, gram)
        y = a * y + torch.matmul(update, y)
    return y.to(x.dtype)
