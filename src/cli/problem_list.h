// --problems LIST: "all", or comma-separated ids, id ranges and names ("1-8,13,allreduce").
#pragma once

#include <string>
#include <vector>

#include "src/problem/problem_index.h"

namespace pkb::cli {

/// Problem keys in the order given, without duplicates. Throws pkb::UsageError naming --problems.
std::vector<std::string> parse_problem_list(const problem::ProblemIndex& index,
                                            const std::string& text);

}  // namespace pkb::cli
