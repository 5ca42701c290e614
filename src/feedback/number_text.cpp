#include "src/feedback/number_text.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace pkb::feedback {

std::string number_text(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // Below 2^53 an integral double prints exactly; counts such as mismatches stay whole.
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0)
    return std::to_string(static_cast<std::int64_t>(value));
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

std::string number_or(std::optional<double> value, const std::string& missing) {
  return value ? number_text(*value) : missing;
}

}  // namespace pkb::feedback
