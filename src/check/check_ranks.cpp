// check_all_ranks (see check_ranks.h).
#include "src/check/check_ranks.h"

#include <algorithm>

namespace pkb::check {

std::vector<TensorVerdict> check_all_ranks(const problem::ProblemSpec& spec, const std::vector<ref::Tensors>& got,
                                           const std::vector<ref::Tensors>& expected_fp64,
                                           const std::vector<ref::Tensors>& reference_in_dtype, DType dtype) {
  const Rule rule{spec.tolerance_for(dtype), spec.error_ratio};
  std::vector<TensorVerdict> verdicts;
  for (std::size_t rank = 0; rank < got.size(); ++rank) {
    for (const auto& output : spec.outputs) {
      verdicts.push_back(compare_tensor(output.name, static_cast<int>(rank), got[rank].at(output.name),
                                        expected_fp64[rank].at(output.name),
                                        reference_in_dtype[rank].at(output.name), rule));
    }
  }
  std::stable_partition(verdicts.begin(), verdicts.end(),
                        [](const TensorVerdict& verdict) { return !verdict.passed; });
  return verdicts;
}

}  // namespace pkb::check
