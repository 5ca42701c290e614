// A gemm step on the simulated node, computed as cuBLAS rounds it: products accumulated in fp32
// (fp64 for fp64, int32 for int8) in k order, alpha and beta applied in that type, one rounding
// to C's dtype. Row-major like the plan's gemm step (docs/ABI.md).
#pragma once

#include "harness/device/device.h"

namespace pkb::harness {

void host_gemm(const GemmCall& call);

}  // namespace pkb::harness
