# pkb problem 040_ddp: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def matmul(a, b):
    """A GEMM in the inputs' dtype: fp32 accumulation, one rounding."""
    return torch.matmul(a.float(), b.float()).to(a.dtype)


def linear(x, weight, bias):
    """x @ weight^T + bias, accumulated in fp32 and rounded once."""
    return (torch.matmul(x.float(), weight.float().t()) + bias.float()).to(x.dtype)


def mlp_grads(x, y, w1, b1, w2, b2):
    """Gradients (w1, b1, w2, b2) of mean((o - y)^2), o = relu(x w1^T + b1) w2^T + b2, by hand."""
    pre = linear(x, w1, b1)
    h = torch.relu(pre)
    o = linear(h, w2, b2)
    d_o = (o - y) * (2.0 / o.numel())
    d_pre = matmul(d_o, w2).masked_fill(pre <= 0, 0)  # relu'(0) = 0
    return (matmul(d_pre.t(), x), d_pre.float().sum(0).to(x.dtype),
            matmul(d_o.t(), h), d_o.float().sum(0).to(x.dtype))


def adam(param, grad, exp_avg, exp_avg_sq, lr, beta1, beta2, eps, step):
    """One Adam step without weight decay, op by op in the tensors' dtype; returns new tensors."""
    m = torch.add(exp_avg * beta1, grad, alpha=1 - beta1)
    v = torch.addcmul(exp_avg_sq * beta2, grad, grad, value=1 - beta2)
    m_hat = m / (1 - beta1 ** step)
    v_hat = v / (1 - beta2 ** step)
    denom = v_hat.sqrt() + eps
    return param + (m_hat / denom) * (-lr), m, v


def broadcast_flat(tensors):
    """Broadcasts the tensors from rank 0 as one flat buffer and returns rank 0's values."""
    flat = torch.cat([t.reshape(-1) for t in tensors])
    dist.broadcast(flat, src=0)
    return [piece.view(t.shape) for piece, t in zip(flat.split([t.numel() for t in tensors]), tensors)]


def solution(X_local, y_local, w1, b1, w2, b2,
             exp_avg_w1, exp_avg_b1, exp_avg_w2, exp_avg_b2,
             exp_avg_sq_w1, exp_avg_sq_b1, exp_avg_sq_w2, exp_avg_sq_b2,
             lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, step=3):
    """One data-parallel (DDP) training step of a two-layer ReLU MLP with Adam.

    X_local: (M/W, D_IN) and y_local: (M/W, D_OUT), this rank's rows of the data.
    w1: (HID, D_IN), b1: (HID,), w2: (D_OUT, HID), b2: (D_OUT,); the exp_avg_* and exp_avg_sq_*
    moments have the same shapes. Only rank 0's parameters and moments are meaningful.
      1. Broadcast the parameters, then the first moments, then the second moments, each flattened
         in the order w1, b1, w2, b2, from rank 0.
      2. Forward on the local rows: o = relu(X w1^T + b1) w2^T + b2, loss = mean((o - y)^2) over
         this rank's elements; backward by hand (relu'(0) = 0).
      3. Flatten the gradients, all-reduce SUM, divide by W (in the run dtype).
      4. Adam: m = b1 m + (1-b1) g, v = b2 v + (1-b2) g^2, p -= lr (m/(1-b1^t)) / (sqrt(v/(1-b2^t)) + eps).
    Returns the 4 updated parameters, the 4 first moments and the 4 second moments (12 tensors,
    the same on every rank).
    """
    params = broadcast_flat([w1, b1, w2, b2])
    exp_avgs = broadcast_flat([exp_avg_w1, exp_avg_b1, exp_avg_w2, exp_avg_b2])
    exp_avg_sqs = broadcast_flat([exp_avg_sq_w1, exp_avg_sq_b1, exp_avg_sq_w2, exp_avg_sq_b2])

    grads = mlp_grads(X_local, y_local, *params)
    flat_grad = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat_grad, op=dist.ReduceOp.SUM)
    flat_grad = flat_grad / dist.get_world_size()
    grads = [piece.view(p.shape) for piece, p in zip(flat_grad.split([p.numel() for p in params]), params)]

    updated = [adam(p, g, m, v, lr, beta1, beta2, eps, step)
               for p, g, m, v in zip(params, grads, exp_avgs, exp_avg_sqs)]
    return tuple(u[0] for u in updated) + tuple(u[1] for u in updated) + tuple(u[2] for u in updated)
