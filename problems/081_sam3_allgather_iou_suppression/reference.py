# pkb problem 081_sam3_allgather_iou_suppression: the PyTorch reference (shapes and dtypes:
# problem.json).
import torch
import torch.distributed as dist


def solution(masks: torch.Tensor, scores: torch.Tensor, num_obj_per_gpu: torch.Tensor,
             last_occluded: torch.Tensor, iou_threshold: float, reverse: int):
    """Gather the tracked objects of every rank, then suppress overlapping ones.

    masks: [n_r, H, H] mask logits in the run precision; scores: [n_r]; num_obj_per_gpu: [W] int64
    (n_s for every rank s); last_occluded: [Tn] int64 per global object, Tn = sum of n_s.
    1. Gather masks and scores (as fp32) from all ranks in rank order: Mg [Tn, H, H], Sg [Tn].
    2. b = (Mg > 0) flattened; IoU_ij = |b_i & b_j| / max(|b_i| + |b_j| - |b_i & b_j|, 1).
    3. For i < j with IoU_ij >= iou_threshold and lo = last_occluded:
       i is suppressed if lo_i > lo_j and lo_j > -1; j is suppressed if lo_j > lo_i and lo_i > -1
       (with reverse, the comparisons of lo_i and lo_j are flipped).
    4. Mg[n] = -10 for every suppressed n.
    Returns gathered_masks [Tn, H, H] fp32, gathered_scores [Tn] fp32, suppressed [Tn] bool.
    """
    world = dist.get_world_size()
    counts = [int(n) for n in num_obj_per_gpu.tolist()]
    capacity = max(counts)

    def gather_uneven(x):
        # An uneven all_gather, padded to the largest count so every rank sends the same size.
        padded = x.new_zeros((capacity,) + tuple(x.shape[1:]))
        padded[:x.shape[0]] = x
        parts = [torch.empty_like(padded) for _ in range(world)]
        dist.all_gather(parts, padded)
        return torch.cat([part[:n] for part, n in zip(parts, counts)])

    all_masks = gather_uneven(masks.float())
    all_scores = gather_uneven(scores.float())
    total = all_masks.shape[0]

    binary = (all_masks > 0).float().reshape(total, -1)
    intersection = torch.matmul(binary, binary.t())  # exact: 0/1 products, fp32 sums of integers
    area = binary.sum(dim=1)
    union = area[:, None] + area[None, :] - intersection
    iou = intersection / torch.clamp(union, min=1.0)
    index = torch.arange(total, device=all_masks.device)
    overlap = (iou >= iou_threshold) & (index[:, None] < index[None, :])

    lo_i, lo_j = last_occluded[:, None], last_occluded[None, :]
    i_later, j_later = (lo_i < lo_j, lo_j < lo_i) if reverse else (lo_i > lo_j, lo_j > lo_i)
    suppress_i = overlap & i_later & (lo_j > -1)
    suppress_j = overlap & j_later & (lo_i > -1)
    suppressed = suppress_i.any(dim=1) | suppress_j.any(dim=0)

    all_masks[suppressed] = -10.0
    return all_masks, all_scores, suppressed
