// A light check of a plan against compiled kernels, for the worked answers of this folder: every
// kernel step names a compiled kernel, with one argument per parameter of the right byte size.
// (The plan resolver in harness/plan does the full check against a problem; this one needs none.)
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "src/compile/compile.h"

namespace pkb::examples_test {

/// The bytes a plan argument occupies in the kernel's parameter list (docs/ABI.md, "args").
std::size_t arg_bytes(const std::string& arg);

/// Adds a gtest failure for every mismatch; expects at least one kernel step.
void expect_plan_matches_kernels(const nlohmann::json& plan, const compile::CompileResult& result);

}  // namespace pkb::examples_test
