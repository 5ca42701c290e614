// Loads and validates problems/NNN_name/problem.json. Every malformed field gets its own message
// naming the file and the field; tests/problem/spec_loader_test.cpp pins them.
#pragma once

#include <filesystem>
#include <set>
#include <string>

#include "src/problem/spec.h"

namespace pkb::problem {

constexpr int kSchemaVersion = 1;

/// The categories a problem.json may name ("collective", "tensor-parallel", ...), sorted.
const std::set<std::string>& problem_categories();

/// `dir` is the problem's folder; throws pkb::InputError for anything wrong in problem.json.
ProblemSpec load_problem(const std::filesystem::path& dir);

/// Parses problem.json text; `file` names it in errors and `dir` is recorded in the spec.
ProblemSpec parse_problem(const std::string& text, const std::string& file,
                          const std::filesystem::path& dir);

}  // namespace pkb::problem
