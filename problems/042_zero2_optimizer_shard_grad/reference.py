# pkb problem 042_zero2_optimizer_shard_grad: the PyTorch reference (shapes and dtypes: problem.json).
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


def solution(X_local, y_local, w1, b1, w2, b2, exp_avg_part, exp_avg_sq_part,
             lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, step=3):
    """One ZeRO-2 training step (optimizer state and gradients sharded) of a two-layer ReLU MLP with Adam.

    X_local: (M/W, D_IN) and y_local: (M/W, D_OUT), this rank's rows of the data.
    w1: (HID, D_IN), b1: (HID,), w2: (D_OUT, HID), b2: (D_OUT,); only rank 0's are meaningful.
    The flat parameter vector is [w1 | b1 | w2 | b2] (row-major), T elements; rank r owns the
    partition [r*T/W, (r+1)*T/W), which may cross parameter boundaries. exp_avg_part and
    exp_avg_sq_part: (T/W,), the Adam moments of this rank's partition.
      1. Broadcast the flat parameters from rank 0.
      2. Forward on the local rows: o = relu(X w1^T + b1) w2^T + b2, loss = mean((o - y)^2) over
         this rank's elements; backward by hand (relu'(0) = 0).
      3. Flatten the gradients and reduce-scatter (SUM) them into this rank's partition; divide by W.
      4. Adam on this rank's partition: m = b1 m + (1-b1) g, v = b2 v + (1-b2) g^2,
         p -= lr (m/(1-b1^t)) / (sqrt(v/(1-b2^t)) + eps).
      5. All-gather the updated partitions in rank order into the new flat parameters.
    Returns the 4 updated parameters (the same on every rank), then this rank's updated
    exp_avg_part and exp_avg_sq_part.
    """
    world, rank = dist.get_world_size(), dist.get_rank()
    shapes = [w1.shape, b1.shape, w2.shape, b2.shape]
    sizes = [w1.numel(), b1.numel(), w2.numel(), b2.numel()]
    flat = torch.cat([t.reshape(-1) for t in (w1, b1, w2, b2)])
    dist.broadcast(flat, src=0)
    params = [piece.view(shape) for piece, shape in zip(flat.split(sizes), shapes)]
    part = flat.numel() // world
    start = rank * part

    grads = mlp_grads(X_local, y_local, *params)
    flat_grad = torch.cat([g.reshape(-1) for g in grads])
    grad_part = torch.empty(part, dtype=flat_grad.dtype, device=flat_grad.device)
    dist.reduce_scatter_tensor(grad_part, flat_grad, op=dist.ReduceOp.SUM)
    grad_part = grad_part / world

    new_part, m, v = adam(flat[start:start + part], grad_part, exp_avg_part, exp_avg_sq_part,
                          lr, beta1, beta2, eps, step)
    new_flat = torch.empty_like(flat)
    dist.all_gather_into_tensor(new_flat, new_part.contiguous())
    new_params = [piece.view(shape) for piece, shape in zip(new_flat.split(sizes), shapes)]
    return tuple(new_params) + (m, v)
