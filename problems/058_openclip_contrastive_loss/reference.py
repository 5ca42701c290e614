# pkb problem 058_openclip_contrastive_loss: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist
import torch.nn.functional as F


def block_loss(image, text, logit_scale, logit_bias, positive):
    """SigLIP loss of one image batch against one text batch, in the features' dtype P.

    logits = P(P(P(logit_scale * image) @ text^T) + logit_bias); labels are +1 on the diagonal
    and -1 elsewhere when `positive` (the rank's own pairs), -1 everywhere otherwise.
    Returns -sum(P(logsigmoid(labels * logits))) / batch: the sum in fp32, rounded to P.
    """
    dtype = image.dtype
    logits = torch.matmul((image * logit_scale).float(), text.float().t()).to(dtype) + logit_bias
    if positive:
        eye = torch.eye(logits.shape[0], logits.shape[1], dtype=torch.bool, device=logits.device)
        signed = torch.where(eye, logits, -logits)
    else:
        signed = -logits
    terms = F.logsigmoid(signed.float()).to(dtype)
    return -terms.float().sum().to(dtype) / image.shape[0]


def neighbour_exchange_bidir(left, right, to_left, to_right):
    """Send to_left to rank `left` and to_right to rank `right`; receive from both."""
    from_left = torch.empty_like(to_right)
    from_right = torch.empty_like(to_left)
    ops = [dist.P2POp(dist.isend, to_left, left), dist.P2POp(dist.isend, to_right, right),
           dist.P2POp(dist.irecv, from_left, left), dist.P2POp(dist.irecv, from_right, right)]
    for request in dist.batch_isend_irecv(ops):
        request.wait()
    return from_right, from_left


def neighbour_exchange(left, right, to_right):
    """Send to_right to rank `right`; receive from rank `left`."""
    from_left = torch.empty_like(to_right)
    ops = [dist.P2POp(dist.isend, to_right, right), dist.P2POp(dist.irecv, from_left, left)]
    for request in dist.batch_isend_irecv(ops):
        request.wait()
    return from_left


def solution(image_features: torch.Tensor, text_features: torch.Tensor, logit_scale: float,
             logit_bias: float) -> torch.Tensor:
    """Distributed SigLIP loss (open_clip's SigLipLoss) with a ring exchange of text features.

    image_features, text_features: [Bl, D] in the run's precision P, rows of unit norm; this
    rank's batch. The loss starts as the own-pair block loss; then text batches travel around
    the ring, (W - 1) // 2 bidirectional rounds (adding the batches of ranks r + k, then r - k)
    and, when W is even, one more hop to the right (the batch of rank r + W/2). Every batch of
    another rank adds its negative-only block loss. Each addition is rounded to P.
    Returns loss: 0-d tensor in P, this rank's own value (no cross-rank reduction).
    """
    rank, world = dist.get_rank(), dist.get_world_size()
    left, right = (rank - 1) % world, (rank + 1) % world
    loss = block_loss(image_features, text_features, logit_scale, logit_bias, positive=True)
    to_left = to_right = text_features
    for _ in range((world - 1) // 2):
        from_right, from_left = neighbour_exchange_bidir(left, right, to_left, to_right)
        for text in (from_right, from_left):
            loss = loss + block_loss(image_features, text, logit_scale, logit_bias, positive=False)
        to_left, to_right = from_right, from_left
    if world % 2 == 0 and world > 1:
        text = neighbour_exchange(left, right, to_right)
        loss = loss + block_loss(image_features, text, logit_scale, logit_bias, positive=False)
    return loss
