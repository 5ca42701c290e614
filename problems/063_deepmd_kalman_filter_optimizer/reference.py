# pkb problem 063_deepmd_kalman_filter_optimizer: the PyTorch reference (shapes: problem.json).
import torch
import torch.distributed as dist


def solution(H: torch.Tensor, weights: torch.Tensor, P: torch.Tensor, error: torch.Tensor,
             kalman_lambda: float, kalman_nue: float):
    """One step of DeePMD's Kalman-filter optimizer on nb weight blocks per rank (all fp64).

    H: (nb, L, 1) gradient columns H_i; weights: (nb, L, 1) weight columns w_i;
    P: (nb, L, L) covariances P_i; error: () the prediction error.
    1. t = sum_i (lambda + H_i^T P_i H_i), a (1, 1) tensor (lambda is added once per block)
    2. all_reduce SUM of t over all ranks; A = 1 / t
    3. per block: K_i = P_i H_i; w_i' = w_i + A * error * K_i; P_i' = (P_i - A K_i K_i^T) / lambda
    4. all_gather every rank's w' (flattened to nb * L values)
    5. lambda_next = nue * lambda + 1 - nue
    Returns (weights_all (W * nb, L, 1) in (source rank, block) order, P_new (nb, L, L),
    lambda_next ()).
    """
    world = dist.get_world_size()
    nb, length = H.shape[0], H.shape[1]

    K = torch.matmul(P, H)
    t = H.new_zeros(1, 1)
    for i in range(nb):
        t = t + (kalman_lambda + torch.matmul(H[i].t(), K[i]))
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    A = 1.0 / t

    new_weights = weights + A * error * K
    new_P = (P - A * torch.matmul(K, K.transpose(1, 2))) / kalman_lambda

    flat = new_weights.reshape(-1).contiguous()
    parts = [torch.empty_like(flat) for _ in range(world)]
    dist.all_gather(parts, flat)
    weights_all = torch.stack(parts).reshape(world * nb, length, 1)

    lambda_next = torch.tensor(kalman_nue * kalman_lambda + 1 - kalman_nue, dtype=torch.float64,
                               device=H.device)
    return weights_all, new_P, lambda_next
