# pkb problem 072_hyena_forward_cp: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def _seq_to_channels(x, world):
    """(B, C, Ls) zigzag sequence shard -> (B, C/W, S) channel shard in natural token order."""
    batch, channels, local = x.shape
    block, half = channels // world, local // 2
    send = x.reshape(batch, world, block, local).transpose(0, 1).contiguous()
    received = torch.empty_like(send)  # (W sources, B, C/W, Ls): source s holds chunks s, 2W-1-s
    dist.all_to_all_single(received, send)
    chunks = received.reshape(world, batch, block, 2, half)
    first = chunks[:, :, :, 0].permute(1, 2, 0, 3)          # chunks 0 .. W-1
    second = chunks.flip(0)[:, :, :, 1].permute(1, 2, 0, 3)  # chunks W .. 2W-1
    return torch.cat([first, second], dim=2).reshape(batch, block, world * local)


def _channels_to_seq(z, world):
    """(B, C/W, S) channel shard in natural order -> (B, C, Ls) zigzag sequence shard."""
    batch, block, total = z.shape
    half = total // (2 * world)
    chunks = z.reshape(batch, block, 2 * world, half)
    pairs = torch.stack([chunks[:, :, :world], chunks[:, :, world:].flip(2)], dim=3)
    send = pairs.permute(2, 0, 1, 3, 4).contiguous()  # (W dest, B, C/W, 2, Ls/2)
    received = torch.empty_like(send)                 # (W sources = channel blocks, ...)
    dist.all_to_all_single(received, send)
    return received.permute(1, 0, 2, 3, 4).reshape(batch, world * block, 2 * half)


def solution(x1_seq: torch.Tensor, x2_seq: torch.Tensor, v_seq: torch.Tensor, h: torch.Tensor,
             conv_bias: torch.Tensor):
    """Hyena forward with context parallelism (zigzag sequence sharding).

    x1_seq, x2_seq, v_seq: (B, C, Ls); the global sequence has S = W*Ls tokens in 2W chunks of
    Ls/2 and rank r holds chunks r and 2W-1-r. h: (C, Lh), conv_bias: (C,), indexed by global
    channel. Rank r works on channels r*C/W ... after an all_to_all_single of each input
    (channel block d to rank d, received pieces concatenated in source order, chunks permuted to
    natural order). Then, per channel c and token t, in fp32 with rounding to P where shown:
      u = rnd_P(x2 * v)
      y[c, t] = rnd_P(sum_{j <= min(t, Lh-1)} h[c, j] * u[c, t-j] + conv_bias[c] * u[c, t])
                (causal linear convolution, here by rfft/irfft of length 2S)
      z = rnd_P(x1 * y)
    and back with the inverse permutation and all_to_all_single. Returns z transposed to
    (B, Ls, C).
    """
    world, rank = dist.get_world_size(), dist.get_rank()
    dtype = x1_seq.dtype
    x1 = _seq_to_channels(x1_seq, world)
    x2 = _seq_to_channels(x2_seq, world)
    v = _seq_to_channels(v_seq, world)
    block, total = x1.shape[1], x1.shape[2]

    u = (x2.float() * v.float()).to(dtype)
    filt = h[rank * block:(rank + 1) * block].float()
    bias = conv_bias[rank * block:(rank + 1) * block].float().view(1, -1, 1)
    n = 2 * total
    spectrum = torch.fft.rfft(u.float(), n=n) * torch.fft.rfft(filt, n=n)
    conv = torch.fft.irfft(spectrum, n=n)[..., :total]
    y = (conv + bias * u.float()).to(dtype)
    z = (x1.float() * y.float()).to(dtype)

    return _channels_to_seq(z, world).transpose(1, 2).contiguous()
