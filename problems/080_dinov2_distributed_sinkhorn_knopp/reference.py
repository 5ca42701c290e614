# pkb problem 080_dinov2_distributed_sinkhorn_knopp: the PyTorch reference (shapes and dtypes:
# problem.json).
import torch
import torch.distributed as dist


def solution(teacher_output: torch.Tensor, n_masked_patches_tensor: torch.Tensor,
             teacher_temp: float, n_iterations: int) -> torch.Tensor:
    """DINOv2's distributed Sinkhorn-Knopp (fp32 throughout).

    teacher_output: [Bl, Kp] fp32, this rank's samples x prototypes.
    n_masked_patches_tensor: [1] int64, this rank's number of samples.
    Q = exp(teacher_output / teacher_temp)^T, [Kp, Bl]; B = sum over ranks of the sample counts.
    Q is divided by its total sum over all ranks, then n_iterations times:
      rows: Q /= (row sums over all ranks' samples, all-reduced); Q /= Kp
      columns: Q /= (local column sums); Q /= B
    Finally Q *= B. Returns q = Q^T: [Bl, Kp] fp32, every row sums to 1.
    """
    q = torch.exp(teacher_output / teacher_temp).t()
    num_samples = n_masked_patches_tensor.to(q.dtype)
    dist.all_reduce(num_samples)
    num_prototypes = q.shape[0]

    total = torch.sum(q)
    dist.all_reduce(total)
    q = q / total
    for _ in range(n_iterations):
        row_sums = torch.sum(q, dim=1, keepdim=True)  # [Kp, 1]
        dist.all_reduce(row_sums)
        q = q / row_sums
        q = q / num_prototypes
        q = q / torch.sum(q, dim=0, keepdim=True)  # columns are local: no collective
        q = q / num_samples
    q = q * num_samples
    return q.t().contiguous()
