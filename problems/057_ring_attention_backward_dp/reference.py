# pkb problem 057_ring_attention_backward_dp: the PyTorch reference (shapes and dtypes:
# problem.json).
import math

import torch
import torch.distributed as dist


def solution(dout: torch.Tensor, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
             out: torch.Tensor, softmax_lse: torch.Tensor, groups: dict):
    """Backward of non-causal ring attention, context parallel (CP) inside data-parallel (DP)
    replicas.

    groups["cp"]: contiguous blocks of W/2 ranks (one DP replica each); CP rank c holds sequence
    block c. groups["dp"]: the pairs {c, c + W/2}.
    dout, q, k, v, out: (B, S, H, D) in the run precision; softmax_lse: (B, H, S) fp32, the
    forward's logsumexp of the scores of this rank's queries over the replica's whole sequence.
    For query block a (dout, q, out, lse of CP rank a) and key block b (k, v of CP rank b), per
    (batch, head), in fp32, with s = D^-1/2:
      A = q k^T s; P = exp(A - lse); dP = dout v^T; delta = rowsum(dout * out);
      dA = P * (dP - delta); dQ = dA k s; dK = dA^T q s; dV = P^T dout.
    K/V blocks travel around the CP ring (to CP rank c+1) together with fp32 dK/dV accumulators
    of their block: dq_c = sum over blocks b of dQ(c, b) in step order (b = c, c-1, ...);
    dk_b, dv_b = sum over query ranks a of dK(a, b), dV(a, b), starting at a = b; one final hop
    delivers them to rank b. dq, dk, dv are rounded to P, all-reduced (sum, in P) over the DP
    group and divided by its size. Returns (dq, dk, dv), each (B, S, H, D).
    """
    cp_group, dp_group = groups["cp"], groups["dp"]
    cp, rank = dist.get_world_size(cp_group), dist.get_rank(cp_group)
    send_to = dist.get_global_rank(cp_group, (rank + 1) % cp)
    recv_from = dist.get_global_rank(cp_group, (rank - 1) % cp)
    dtype = q.dtype
    dout_f, q_f, out_f = (t.float().transpose(1, 2).contiguous() for t in (dout, q, out))
    lse = softmax_lse.float().unsqueeze(-1)
    delta = (dout_f * out_f).sum(-1, keepdim=True)
    scale = 1.0 / math.sqrt(q.shape[-1])

    def exchange(send_tensors, recv_tensors):
        ops = []
        for sent, received in zip(send_tensors, recv_tensors):
            ops.append(dist.P2POp(dist.isend, sent, send_to, cp_group))
            ops.append(dist.P2POp(dist.irecv, received, recv_from, cp_group))
        return dist.batch_isend_irecv(ops)

    k_cur, v_cur = k.contiguous(), v.contiguous()
    dq, dk, dv = torch.zeros_like(q_f), torch.zeros_like(q_f), torch.zeros_like(q_f)
    for step in range(cp):
        requests = []
        if step + 1 < cp:  # overlap the K/V exchange with this step's compute
            k_next, v_next = torch.empty_like(k_cur), torch.empty_like(v_cur)
            requests = exchange([k_cur, v_cur], [k_next, v_next])
        k_f, v_f = k_cur.float().transpose(1, 2), v_cur.float().transpose(1, 2)
        probs = torch.exp(torch.matmul(q_f, k_f.transpose(-1, -2)) * scale - lse)
        d_scores = probs * (torch.matmul(dout_f, v_f.transpose(-1, -2)) - delta)
        dq = dq + torch.matmul(d_scores, k_f) * scale
        dk = dk + torch.matmul(d_scores.transpose(-1, -2), q_f) * scale
        dv = dv + torch.matmul(probs.transpose(-1, -2), dout_f)
        for request in requests:
            request.wait()
        if cp > 1:  # the accumulators move on with their block; the last hop reaches its owner
            dk_next, dv_next = torch.empty_like(dk), torch.empty_like(dv)
            for request in exchange([dk.contiguous(), dv.contiguous()], [dk_next, dv_next]):
                request.wait()
            dk, dv = dk_next, dv_next
        if step + 1 < cp:
            k_cur, v_cur = k_next, v_next

    dp = dist.get_world_size(dp_group)
    grads = []
    for grad in (dq, dk, dv):
        grad = grad.transpose(1, 2).to(dtype).contiguous()
        if dp > 1:
            dist.all_reduce(grad, op=dist.ReduceOp.SUM, group=dp_group)
            grad = grad / dp
        grads.append(grad)
    return tuple(grads)
