// A GEMM in the run precision P: fp32 accumulation, one rounding to P. The rule every GEMM
// problem's reference.py states as torch.matmul(a.float(), b.float()).to(a.dtype).
#pragma once

#include <ATen/core/Tensor.h>

namespace pkb::ref {

/// On a GPU this is at::matmul (cuBLAS accumulates bf16/fp16 in fp32 and rounds once, and the
/// timing baseline stays a native GEMM). On the CPU, where torch 1.13 has no fp16 GEMM, half
/// types are multiplied in fp32 explicitly and rounded once. fp32 and fp64 pass through.
at::Tensor matmul_p(const at::Tensor& a, const at::Tensor& b);

}  // namespace pkb::ref
