# pkb problem 060_physicsnemo_distributed_irfft: the PyTorch reference (shapes and dtypes:
# problem.json).
import torch
import torch.distributed as dist


def solution(x: torch.Tensor):
    """Distributed 2-D inverse real FFT (orthonormal) of a row-sharded half spectrum.

    x: (Bt, C, Hh/W, Ww/2 + 1, 2) fp32: rows rank*Hh/W ... of the half spectrum X
    (Bt, C, Hh, Ww/2 + 1) of a real image, complex stored as (real, imag) in the last dimension.
    Ww is even.
    1. Hermitian extension to Ww columns: all_gather the rows of X; ext[h, j] = X[h, j] for
       j <= Ww/2 and conj(X[(Hh - h) mod Hh, Ww - j]) for j > Ww/2; keep this rank's rows.
    2. Inverse FFT along the width (n = Ww, norm="ortho").
    3. all_to_all: column block j (Ww/W columns) goes to rank j; the received blocks are
       concatenated along the height in source-rank order (all Hh rows, this rank's columns).
    4. Inverse FFT along the height (n = Hh, norm="ortho"). 5. Take the real part.
    The result equals columns rank*Ww/W ... of torch.fft.irfft2(X, s=(Hh, Ww), norm="ortho").
    Complex tensors are sent as real views. Returns y: (Bt, C, Hh, Ww/W) fp32.
    """
    world, rank = dist.get_world_size(), dist.get_rank()
    rows, freqs = x.shape[2], x.shape[3]
    height, width = rows * world, 2 * (freqs - 1)

    gathered = [torch.empty_like(x) for _ in range(world)]
    dist.all_gather(gathered, x.contiguous())
    spectrum = torch.view_as_complex(torch.cat(gathered, dim=2))  # (Bt, C, Hh, Ww/2 + 1)
    mirrored_rows = (-torch.arange(height, device=x.device)) % height  # (Hh - h) mod Hh
    upper = torch.conj_physical(
        spectrum.index_select(2, mirrored_rows)[..., 1:width - freqs + 1].flip(3))
    extended = torch.cat([spectrum, upper], dim=3)[:, :, rank * rows:(rank + 1) * rows]

    along_width = torch.fft.ifft(extended, dim=3, norm="ortho")  # (Bt, C, Hh/W, Ww)
    send = [torch.view_as_real(block).contiguous() for block in along_width.chunk(world, dim=3)]
    received = [torch.empty_like(send[0]) for _ in range(world)]
    dist.all_to_all(received, send)
    columns = torch.view_as_complex(torch.cat(received, dim=2))  # (Bt, C, Hh, Ww/W)
    return torch.fft.ifft(columns, dim=2, norm="ortho").real.contiguous()
