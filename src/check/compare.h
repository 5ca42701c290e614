// The correctness rule. A floating element passes when
//   |got - expected_fp64| <= atol + rtol * |expected_fp64| + error_ratio * reference_error,
// where reference_error = max |reference_in_dtype - expected_fp64| over the tensor: the rounding
// the dtype itself forces on the reference. This admits a kernel that sums in another order
// (bf16 sums over 8 ranks differ by several ulps) and fails one that skips communication.
// Integer and bool outputs compare exactly. NaN or Inf where the fp64 answer has none fails.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <ATen/ATen.h>

#include "src/problem/spec.h"

namespace pkb::check {

struct TensorVerdict {
  std::string name;
  int rank = 0;
  bool passed = false;
  bool exact = false;             // integer/bool: compared exactly
  double max_abs_err = 0;         // max |got - expected_fp64|
  double max_rel_err = 0;         // max |got - expected| / |expected| over nonzero expected
  double reference_error = 0;     // max |reference_in_dtype - expected_fp64|
  double error_ratio = 0;         // max_abs_err / reference_error (0 when both are 0)
  std::int64_t mismatches = 0;
  std::int64_t elements = 0;
  std::vector<std::int64_t> first_bad_index;  // empty when passed
  double got_at_first_bad = 0;
  double expected_at_first_bad = 0;
  std::string reason;  // shape or dtype problems, empty otherwise

  std::string summary() const;  // one line: "rank 2 y: 5/32 mismatches, first at [1, 3]: got 4 expected 7"
};

struct Rule {
  problem::Tolerance tolerance;
  double error_ratio = 8;
};

TensorVerdict compare_tensor(const std::string& name, int rank, const at::Tensor& got,
                             const at::Tensor& expected_fp64, const at::Tensor& reference_in_dtype,
                             const Rule& rule);

}  // namespace pkb::check
