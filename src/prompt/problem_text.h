// The parts of a prompt that describe one problem at one setting: every argument's per-rank shape
// and dtype, the scalars and the sub-groups, as plain lines for a template.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "src/common/dtype.h"
#include "src/problem/spec.h"

namespace pkb::prompt {

/// One line per argument and run of ranks with the same shape:
/// "- input `x`: bf16 [1024, 1024] on every rank" / "... on rank 0" / "... on ranks 1-7".
std::string arguments_text(const problem::ProblemSpec& spec, int world, DType dtype,
                           const std::map<std::string, std::int64_t>& dims);
std::string scalars_text(const problem::ProblemSpec& spec);  // "" when there are none
std::string groups_text(const problem::ProblemSpec& spec, int world,
                        const std::map<std::string, std::int64_t>& dims);
std::string dims_line(const std::map<std::string, std::int64_t>& dims);  // "M=4, N=8"

}  // namespace pkb::prompt
