# pkb problem 067_gnn_sparse_embedding_all2all: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(idx: torch.Tensor, value: torch.Tensor):
    """Send every (index, row) pair of a sparse embedding gradient to the rank owning the index.

    idx: (NNZ,) int64; value: (NNZ, H). owner(i) = idx[i] mod W. The pairs are stably sorted by
    owner, the per-owner counts are exchanged, then the sorted indices and rows are sent with
    variable splits. Rank r receives every pair with idx mod W == r, ordered by source rank, then
    by position within the source: R of them.
    Returns (recv_idx, recv_value, recv_count): recv_idx (W*NNZ,) int64 with -1 after the first R
    entries, recv_value (W*NNZ, H) with zero rows after the first R, recv_count = R (0-d int64).
    """
    world = dist.get_world_size()
    owner = idx % world
    order = torch.sort(owner, stable=True).indices
    send_counts = torch.bincount(owner, minlength=world)
    recv_counts = torch.empty_like(send_counts)
    dist.all_to_all_single(recv_counts, send_counts)

    sends, recvs = send_counts.tolist(), recv_counts.tolist()
    received = sum(recvs)
    recv_idx = idx.new_empty(received)
    dist.all_to_all_single(recv_idx, idx[order], output_split_sizes=recvs, input_split_sizes=sends)
    recv_value = value.new_empty((received, value.shape[1]))
    dist.all_to_all_single(recv_value, value[order], output_split_sizes=recvs,
                           input_split_sizes=sends)

    capacity = world * idx.shape[0]
    padded_idx = torch.full((capacity,), -1, dtype=idx.dtype, device=idx.device)
    padded_idx[:received] = recv_idx
    padded_value = value.new_zeros((capacity, value.shape[1]))
    padded_value[:received] = recv_value
    recv_count = torch.tensor(received, dtype=torch.int64, device=idx.device)
    return padded_idx, padded_value, recv_count
