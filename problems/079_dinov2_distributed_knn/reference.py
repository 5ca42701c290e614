# pkb problem 079_dinov2_distributed_knn: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def _top_k(values: torch.Tensor, k: int):
    """The k largest values per row, descending; equal values keep their column order (stable),
    so ties go to the lower index. Sorted in fp32, exact for every run precision."""
    ordered, order = torch.sort(values.float(), dim=1, descending=True, stable=True)
    return ordered[:, :k].to(values.dtype).contiguous(), order[:, :k].contiguous()


def solution(test_features: torch.Tensor, train_features_T: torch.Tensor,
             train_labels: torch.Tensor, max_k: int):
    """Distributed k-nearest neighbours by dot-product similarity.

    test_features: [Qn, Fd] this rank's queries; train_features_T: [Fd, Ln] this rank's train
    features, Ln = LT / W train rows per rank out of LT in all (column j = global train row
    r * Ln + j); train_labels: [1, Ln] int64.
    k = min(max_k, Ln). For each owner rank o in turn:
      1. o broadcasts its query shape (int64 [2]) and then its queries Q_o.
      2. Every rank computes sims = Q_o @ train_features_T (fp32 accumulation, rounded to the run
         precision), keeps its k best per query (descending, lower index first among ties) and
         their labels.
      3. The candidates ([Qn, k] values and labels) are gathered to o, concatenated in rank order
         ([Qn, W*k]), and o keeps the k best again (stable, so ties go to the lower global index).
    Returns, for this rank's queries, topk_sims [Qn, k] (run precision) and topk_labels [Qn, k]
    (int64).
    """
    world, rank = dist.get_world_size(), dist.get_rank()
    k = min(max_k, train_features_T.shape[1])
    for owner in range(world):
        if rank == owner:
            shape = torch.tensor(test_features.shape, dtype=torch.int64, device=test_features.device)
        else:
            shape = torch.empty(2, dtype=torch.int64, device=test_features.device)
        dist.broadcast(shape, src=owner)
        if rank == owner:
            queries = test_features.contiguous()
        else:
            queries = torch.empty(tuple(shape.tolist()), dtype=test_features.dtype,
                                  device=test_features.device)
        dist.broadcast(queries, src=owner)

        sims = torch.matmul(queries.float(), train_features_T.float()).to(queries.dtype)
        values, index = _top_k(sims, k)
        labels = train_labels.expand(sims.shape[0], -1).gather(1, index)

        if rank == owner:
            all_values = [torch.empty_like(values) for _ in range(world)]
            all_labels = [torch.empty_like(labels) for _ in range(world)]
            dist.gather(values, all_values, dst=owner)
            dist.gather(labels, all_labels, dst=owner)
            topk_sims, order = _top_k(torch.cat(all_values, dim=1), k)
            topk_labels = torch.cat(all_labels, dim=1).gather(1, order)
        else:
            dist.gather(values, dst=owner)
            dist.gather(labels, dst=owner)
    return topk_sims, topk_labels
