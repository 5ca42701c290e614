# pkb problem 053_fp8_allgather_params: the PyTorch reference (shapes and dtypes: problem.json).
import math

import torch
import torch.distributed as dist

E4M3_MAX = 448.0


def float_to_e4m3_codes(values: torch.Tensor) -> torch.Tensor:
    """fp32 values -> float8 e4m3fn bit patterns as uint8, rounding to nearest with ties to even.

    e4m3fn: sign bit, 4 exponent bits (bias 7), 3 mantissa bits; code (e << 3 | m) is
    (1 + m/8) * 2**(e - 7) for e > 0 and m/8 * 2**-6 for e = 0. There are no infinities:
    0x7f is NaN, and magnitudes beyond 448 saturate to 448 (code 0x7e).
    Written with plain float ops so it runs where torch has no float8 dtype.
    """
    values = values.float()
    nan = torch.isnan(values)
    magnitude = torch.where(nan, torch.zeros_like(values), values.abs()).clamp(max=480.0)
    # magnitude = mantissa * 2**exponent with mantissa in [0.5, 1): for a normal e4m3 result
    # the step is 2**(exponent - 4), so round(mantissa * 16) counts steps (8..16, where 16
    # carries into the next exponent). Below 2**-6 the step stays 2**-9.
    mantissa, exponent = torch.frexp(magnitude)
    normal = magnitude >= 2.0 ** -6
    steps = torch.where(normal, torch.round(mantissa * 16), torch.round(magnitude * 512))
    code = torch.where(normal, (exponent + 5) * 8, torch.zeros_like(exponent)) + steps.int()
    code = code.clamp(max=0x7E)
    code = torch.where(nan, torch.full_like(code, 0x7F), code)
    code = code + 0x80 * torch.signbit(values).int()
    return code.to(torch.uint8)


def e4m3_codes_to_float(codes: torch.Tensor) -> torch.Tensor:
    """uint8 e4m3fn bit patterns -> their exact fp32 values (0x7f and 0xff are NaN)."""
    table = []
    for code in range(256):
        exponent, mantissa = (code >> 3) & 0xF, code & 0x7
        if exponent == 0xF and mantissa == 0x7:
            value = math.nan
        elif exponent == 0:
            value = math.ldexp(mantissa, -9)
        else:
            value = math.ldexp(8 + mantissa, exponent - 10)
        table.append(-value if code & 0x80 else value)
    table = torch.tensor(table, dtype=torch.float32, device=codes.device)
    return table[codes.long()]


def fp8_round_trip(x: torch.Tensor, amax_history: torch.Tensor):
    """Delayed-scaling e4m3 quantise + dequantise of x with this rank's amax history.

    a      = max |x| (this rank only)
    hist   = amax_history rotated left by one, its last entry then set to bf16(a)
    scale  = fp32(bf16(max(max(hist), 1e-12))) / 448          (fp32 division)
    recon  = P(fp32(e4m3(fp32(x) / scale)) * scale)           (e4m3: nearest even)
    Returns (recon in x's dtype, hist in bf16).
    """
    amax = x.float().abs().max()
    hist = torch.roll(amax_history, -1)
    hist[-1] = amax.to(torch.bfloat16)
    limit = hist.max().float().clamp(min=1e-12).to(torch.bfloat16).float()
    # Divide by a tensor: on CUDA, division by a Python number becomes a multiply by its
    # reciprocal, which rounds differently.
    scale = limit / torch.full_like(limit, E4M3_MAX)
    codes = float_to_e4m3_codes(x.float() / scale)
    recon = (e4m3_codes_to_float(codes) * scale).to(x.dtype)
    return recon, hist


def solution(flat_param_shard: torch.Tensor, amax_history: torch.Tensor):
    """fp8 parameter all-gather with delayed scaling.

    flat_param_shard: [Psz] in the run's precision P; amax_history: [16] bf16.
    Each rank quantises its shard to e4m3 with its own scale and dequantises it back to P
    (fp8_round_trip); the reconstructions are gathered in rank order.
    Returns (full [W * Psz] P, identical on all ranks; updated_hist [16] bf16, this rank's).
    """
    world = dist.get_world_size()
    recon, hist = fp8_round_trip(flat_param_shard, amax_history)
    full = torch.empty(world * recon.numel(), dtype=recon.dtype, device=recon.device)
    dist.all_gather_into_tensor(full, recon)
    return full, hist
