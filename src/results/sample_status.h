// The status of one evaluated sample (docs/ARCHITECTURE.md, "Evaluation"), in pipeline order;
// `compiled` is the end of the road on a machine without a GPU. Enumerators equal their serialized
// names. Owned here, beside the records that carry it, so evaluation, feedback and scoring share it.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace pkb::results {

enum class SampleStatus {
  api_error,
  format_error,
  compile_error,
  plan_error,
  runtime_error,
  timeout,
  incorrect,
  correct,
  compiled,  // compiled and plan validated; no GPU to run it on
};

std::string_view status_name(SampleStatus status);
/// Every status, in pipeline order.
const std::vector<SampleStatus>& all_statuses();
std::optional<SampleStatus> parse_status(std::string_view name);

/// correct, and compiled on a machine without a GPU: the sample did all it could.
inline bool status_ok(SampleStatus status) {
  return status == SampleStatus::correct || status == SampleStatus::compiled;
}

}  // namespace pkb::results
