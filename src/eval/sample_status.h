// The status of one evaluated sample (docs/ARCHITECTURE.md, "Evaluation"), in pipeline order; `compiled` is the end of
// the road on a machine without a GPU. Enumerators equal their serialized names.
#pragma once

#include <optional>
#include <string_view>

namespace pkb::eval {

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
std::optional<SampleStatus> parse_status(std::string_view name);

/// correct, and compiled on a machine without a GPU: the sample did all it could.
inline bool status_ok(SampleStatus status) {
  return status == SampleStatus::correct || status == SampleStatus::compiled;
}

}  // namespace pkb::eval
