// "did you mean" suggestions for unknown names (problem ids, dims, flags).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pkb {

/// The candidate closest to `name` by edit distance, if it is close enough to be a typo.
std::optional<std::string> closest_match(const std::string& name,
                                         const std::vector<std::string>& candidates);

}  // namespace pkb
