# pkb problem 023_grad_acc_loss: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(loss: torch.Tensor, local_valid: torch.Tensor, global_valid: torch.Tensor,
             grad_normalized_loss: torch.Tensor, grad_loss_sum: torch.Tensor):
    """Loss normalisation by the global valid-token count, with its backward rule.

    All tensors are 0-d: loss, grad_normalized_loss and grad_loss_sum in the run's precision P,
    local_valid (this rank's valid tokens) and global_valid (all ranks') in int64. The counts
    are converted to P first, and every operation below is in P:
        loss_sum        = all_reduce_sum(loss * local_valid)
        normalized_loss = loss_sum / global_valid
        grad_loss       = (grad_normalized_loss * local_valid) / global_valid
                          + grad_loss_sum * local_valid          (local: no communication)
    Returns (normalized_loss, loss_sum, grad_loss).
    """
    dtype = loss.dtype
    if int(local_valid) == 0:  # a rank without valid tokens may hold a NaN mean loss
        loss = torch.nan_to_num(loss)
    local = local_valid.to(dtype)
    total = global_valid.to(dtype)

    loss_sum = loss * local
    dist.all_reduce(loss_sum, op=dist.ReduceOp.SUM)
    normalized_loss = loss_sum / total
    grad_loss = grad_normalized_loss * local / total + grad_loss_sum * local
    return normalized_loss, loss_sum, grad_loss
