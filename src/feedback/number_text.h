// Numbers for people in feedback text.
#pragma once

#include <optional>
#include <string>

namespace pkb::feedback {

/// Integers in full (1048576), others with four significant digits.
std::string number_text(double value);

/// number_text of `value`, or `missing` when there is none.
std::string number_or(std::optional<double> value, const std::string& missing);

}  // namespace pkb::feedback
