// host_gemm (see host_gemm.h).
#include "harness/sim/host_gemm.h"

#include <cstring>

#include "harness/ptx/float_formats.h"
#include "src/common/error.h"

namespace pkb::harness {
namespace {

double element(DevAddr base, std::int64_t index, DType dtype) {
  switch (dtype) {
    case DType::bf16: return ptx::bf16_to_double(reinterpret_cast<const std::uint16_t*>(base)[index]);
    case DType::fp16: return ptx::f16_to_double(reinterpret_cast<const std::uint16_t*>(base)[index]);
    case DType::fp32: return reinterpret_cast<const float*>(base)[index];
    case DType::fp64: return reinterpret_cast<const double*>(base)[index];
    case DType::int8: return reinterpret_cast<const std::int8_t*>(base)[index];
    case DType::int32: return reinterpret_cast<const std::int32_t*>(base)[index];
    default: throw Error("gemm: dtype " + std::string(dtype_name(dtype)) + " is not supported by gemm steps");
  }
}

void store(DevAddr base, std::int64_t index, DType dtype, double value) {
  switch (dtype) {
    // Values are fp32 results (one rounding to C's dtype, as cuBLAS writes them).
    case DType::bf16:
      reinterpret_cast<std::uint16_t*>(base)[index] = ptx::float_to_bf16_rn(static_cast<float>(value));
      break;
    case DType::fp16:
      reinterpret_cast<std::uint16_t*>(base)[index] = ptx::float_to_f16_rn(static_cast<float>(value));
      break;
    case DType::fp32: reinterpret_cast<float*>(base)[index] = static_cast<float>(value); break;
    case DType::fp64: reinterpret_cast<double*>(base)[index] = value; break;
    case DType::int32: reinterpret_cast<std::int32_t*>(base)[index] = static_cast<std::int32_t>(value); break;
    default: throw Error("gemm: output dtype " + std::string(dtype_name(dtype)) + " is not supported");
  }
}

}  // namespace

void host_gemm(const GemmCall& call) {
  const bool f64 = call.ab_dtype == DType::fp64;
  const bool integer = call.ab_dtype == DType::int8;
  for (std::int64_t i = 0; i < call.m; ++i)
    for (std::int64_t j = 0; j < call.n; ++j) {
      const std::int64_t c_index = i * call.ldc + j;
      double out;
      if (f64) {
        double acc = 0;
        for (std::int64_t p = 0; p < call.k; ++p)
          acc += element(call.a, call.trans_a ? p * call.lda + i : i * call.lda + p, call.ab_dtype) *
                 element(call.b, call.trans_b ? j * call.ldb + p : p * call.ldb + j, call.ab_dtype);
        out = call.alpha * acc + (call.beta != 0 ? call.beta * element(call.c, c_index, call.c_dtype) : 0.0);
      } else if (integer) {
        std::int32_t acc = 0;
        for (std::int64_t p = 0; p < call.k; ++p)
          acc += static_cast<std::int32_t>(element(call.a, call.trans_a ? p * call.lda + i : i * call.lda + p, call.ab_dtype)) *
                 static_cast<std::int32_t>(element(call.b, call.trans_b ? j * call.ldb + p : p * call.ldb + j, call.ab_dtype));
        out = static_cast<double>(static_cast<std::int32_t>(call.alpha) * acc +
                                  (call.beta != 0 ? static_cast<std::int32_t>(call.beta) *
                                                        static_cast<std::int32_t>(element(call.c, c_index, call.c_dtype))
                                                  : 0));
      } else {
        float acc = 0;
        for (std::int64_t p = 0; p < call.k; ++p)
          acc = static_cast<float>(
              static_cast<double>(acc) +
              static_cast<double>(static_cast<float>(element(call.a, call.trans_a ? p * call.lda + i : i * call.lda + p, call.ab_dtype))) *
                  static_cast<float>(element(call.b, call.trans_b ? j * call.ldb + p : p * call.ldb + j, call.ab_dtype)));
        const float alpha = static_cast<float>(call.alpha), beta = static_cast<float>(call.beta);
        float r = alpha * acc;
        if (beta != 0) r += beta * static_cast<float>(element(call.c, c_index, call.c_dtype));
        out = r;
      }
      store(call.c, c_index, call.c_dtype, out);
    }
}

}  // namespace pkb::harness
