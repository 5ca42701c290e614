# pkb problem 066_gnn_feature_exchange_all2all_backward: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(grad_output: torch.Tensor, seed_inverse_ids: torch.Tensor, seed_size: torch.Tensor,
             counts_sent: torch.Tensor, counts_received: torch.Tensor) -> torch.Tensor:
    """Backward of a GNN feature exchange, with rank-relative peer lists.

    grad_output: (T, H) fp32; seed_inverse_ids: (T,) int64 in [0, seed_size); seed_size: 0-d
    int64; counts_sent, counts_received: (W,) int64. On rank r, list position i names peer
    (r + i) mod W:
      grad_output is cut into W chunks of counts_sent[i] rows; chunk i goes to peer (r + i) mod W
      u is cut into W chunks of counts_received[i] rows; chunk i comes from peer (r + i) mod W
      grad_input[seed_inverse_ids[j]] += u[j] for every j, starting from zeros  (seed_size, H) fp32
    """
    rank, world = dist.get_rank(), dist.get_world_size()
    send_chunks = torch.split(grad_output, counts_sent.tolist())
    recv_sizes = counts_received.tolist()

    # torch.distributed's all_to_all indexes by absolute rank: slot p is peer p.
    inputs = [send_chunks[(p - rank) % world].contiguous() for p in range(world)]
    outputs = [grad_output.new_empty((recv_sizes[(p - rank) % world], grad_output.shape[1]))
               for p in range(world)]
    dist.all_to_all(outputs, inputs)
    u = torch.cat([outputs[(rank + i) % world] for i in range(world)])

    grad_input = torch.zeros((int(seed_size), grad_output.shape[1]), dtype=grad_output.dtype,
                             device=grad_output.device)
    grad_input.index_add_(0, seed_inverse_ids, u)
    return grad_input
