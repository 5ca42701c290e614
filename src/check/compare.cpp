// compare_tensor: the rule in compare.h, computed in fp64 on the CPU.
#include "src/check/compare.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace pkb::check {
namespace {

std::vector<std::int64_t> unravel(std::int64_t flat_index, at::IntArrayRef shape) {
  std::vector<std::int64_t> index(shape.size());
  for (std::size_t dim = shape.size(); dim-- > 0;) {
    index[dim] = shape[dim] == 0 ? 0 : flat_index % shape[dim];
    flat_index = shape[dim] == 0 ? 0 : flat_index / shape[dim];
  }
  return index;
}

std::string index_text(const std::vector<std::int64_t>& index) {
  std::ostringstream out;
  out << "[";
  for (std::size_t dim = 0; dim < index.size(); ++dim) out << (dim ? ", " : "") << index[dim];
  out << "]";
  return out.str();
}

// fp8 is stored as raw bytes; bool and integers compare exactly as int64.
bool is_exact_type(at::ScalarType type) { return !at::isFloatingType(type); }

void record_first_bad(TensorVerdict& verdict, const at::Tensor& bad, const at::Tensor& got,
                      const at::Tensor& expected, at::IntArrayRef shape) {
  verdict.mismatches = bad.sum().item<std::int64_t>();
  verdict.passed = verdict.mismatches == 0;
  if (verdict.passed) return;
  const std::int64_t first = bad.nonzero().index({0, 0}).item<std::int64_t>();
  verdict.first_bad_index = unravel(first, shape);
  verdict.got_at_first_bad = got[first].item<double>();
  verdict.expected_at_first_bad = expected[first].item<double>();
}

}  // namespace

std::string TensorVerdict::summary() const {
  std::ostringstream out;
  out << "rank " << rank << " " << name << ": ";
  if (!reason.empty()) {
    out << reason;
    return out.str();
  }
  if (passed) {
    out << "ok (max abs err " << max_abs_err << ", error ratio " << error_ratio << ")";
    return out.str();
  }
  out << mismatches << "/" << elements << " mismatches, first at " << index_text(first_bad_index)
      << ": got " << got_at_first_bad << " expected " << expected_at_first_bad << " (max abs err "
      << max_abs_err << ", error ratio " << error_ratio << ")";
  return out.str();
}

TensorVerdict compare_tensor(const std::string& name, int rank, const at::Tensor& got,
                             const at::Tensor& expected_fp64, const at::Tensor& reference_in_dtype,
                             const Rule& rule) {
  TensorVerdict verdict;
  verdict.name = name;
  verdict.rank = rank;
  verdict.elements = expected_fp64.numel();
  if (got.sizes() != expected_fp64.sizes()) {
    std::ostringstream out;
    out << "shape " << got.sizes() << ", expected " << expected_fp64.sizes();
    verdict.reason = out.str();
    return verdict;
  }
  if (got.scalar_type() != reference_in_dtype.scalar_type()) {
    verdict.reason = std::string("dtype ") + c10::toString(got.scalar_type()) + ", expected " +
                     c10::toString(reference_in_dtype.scalar_type());
    return verdict;
  }
  const at::IntArrayRef shape = expected_fp64.sizes();
  if (verdict.elements == 0) {
    verdict.passed = true;
    return verdict;
  }

  if (is_exact_type(reference_in_dtype.scalar_type())) {
    verdict.exact = true;
    const at::Tensor g = got.to(at::kCPU).to(at::kLong).reshape({-1});
    const at::Tensor e = expected_fp64.to(at::kCPU).to(at::kLong).reshape({-1});
    const at::Tensor diff = (g - e).abs();
    verdict.max_abs_err = static_cast<double>(diff.max().item<std::int64_t>());
    record_first_bad(verdict, diff.ne(0), g, e, shape);
    return verdict;
  }

  const at::Tensor g = got.to(at::kCPU).to(at::kDouble).reshape({-1});
  const at::Tensor e = expected_fp64.to(at::kCPU).to(at::kDouble).reshape({-1});
  const at::Tensor r = reference_in_dtype.to(at::kCPU).to(at::kDouble).reshape({-1});
  const at::Tensor finite = e.isfinite();
  const at::Tensor zero = at::zeros_like(e);

  const at::Tensor ref_diff = at::where(finite, (r - e).abs(), zero);
  verdict.reference_error = ref_diff.max().item<double>();
  // A NaN in got makes the difference NaN; where() keeps non-finite expected values out.
  const at::Tensor abs_err = at::where(finite, (g - e).abs(), zero);
  const at::Tensor finite_err = at::where(abs_err.isnan(), at::full_like(abs_err, INFINITY), abs_err);
  verdict.max_abs_err = finite_err.max().item<double>();
  const at::Tensor rel = at::where(e.ne(0) & finite, finite_err / e.abs(), zero);
  verdict.max_rel_err = rel.max().item<double>();
  if (verdict.reference_error > 0) verdict.error_ratio = verdict.max_abs_err / verdict.reference_error;
  else verdict.error_ratio = verdict.max_abs_err > 0 ? std::numeric_limits<double>::infinity() : 0;

  const at::Tensor bound = rule.tolerance.atol + rule.tolerance.rtol * e.abs() +
                           rule.error_ratio * verdict.reference_error;
  // Where the fp64 answer is finite, got must be finite and within the bound; where it is NaN,
  // got must be NaN; where it is infinite, got must be the same infinity.
  const at::Tensor finite_bad = finite & ~(finite_err <= bound);
  const at::Tensor nan_bad = e.isnan() & ~g.isnan();
  const at::Tensor inf_bad = e.isinf() & g.ne(e);
  record_first_bad(verdict, finite_bad | nan_bad | inf_bad, g, e, shape);
  return verdict;
}

}  // namespace pkb::check
