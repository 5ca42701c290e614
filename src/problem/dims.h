// --dims test|bench|K=V,...: which sizes a run uses. A base (test or bench) may be followed by
// overrides, e.g. "bench,M=4096"; overrides alone apply on top of `default_base`.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "src/problem/spec.h"

namespace pkb::problem {

enum class DimsBase { test, bench };

/// Throws pkb::UsageError naming the flag and the unknown dim, with a suggestion.
std::map<std::string, std::int64_t> select_dims(const ProblemSpec& spec, const std::string& text,
                                                DimsBase default_base);

}  // namespace pkb::problem
