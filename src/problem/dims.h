// --dims test|bench|K=V,...: which sizes a run uses. A base (test or bench) may be followed by
// overrides, e.g. "bench,M=4096"; overrides alone apply on top of `default_base`.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "src/problem/spec.h"

namespace pkb::problem {

enum class DimsBase { test, bench };

/// Throws pkb::UsageError naming the flag and the unknown dim, with a suggestion.
std::map<std::string, std::int64_t> select_dims(const ProblemSpec& spec, const std::string& text,
                                                DimsBase default_base);

/// select_dims, then the problem's size rules at each of `worlds`: sizes that break one are a
/// pkb::UsageError naming the rule and the problem (src/problem/size_rules.h), before anything runs.
std::map<std::string, std::int64_t> select_dims(const ProblemSpec& spec, const std::string& text,
                                                DimsBase default_base,
                                                const std::vector<int>& worlds);

}  // namespace pkb::problem
