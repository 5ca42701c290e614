// `pkb add-problem`: the three files of a new problem (problem.json, reference.py,
// reference/NNN_name.cpp), generated from a name, a category, world sizes and optionally an
// existing Python reference. The generated C++ compiles but throws until it is filled in, so
// `pkb validate` fails with a message saying what to write. docs/ADDING_A_PROBLEM.md walks through it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "src/scaffold/python_signature.h"

namespace pkb::scaffold {

struct NewProblem {
  int id = 0;                // 0: the next free id
  std::string name;          // lowercase [a-z0-9_]
  std::string category;      // one of problem_categories()
  std::vector<int> world_sizes = {2, 4, 8};
  std::optional<std::filesystem::path> from;  // an existing Python reference to copy
};

/// What was written, for the next-steps message.
struct Created {
  std::string key;                          // "088_name"
  std::vector<std::filesystem::path> files;  // absolute paths, in creation order
  PythonSignature signature;                // as read from --from, or the skeleton's
};

/// Checks `problem` against the repository whose problems folder is `problems_dir` (the code goes
/// to problems_dir/../reference) and writes the three files. Throws pkb::UsageError naming the flag
/// for a bad name, category, id or world size, one that exists, or an unreadable --from; writes
/// nothing in that case, and removes what it wrote if a later write fails.
Created add_problem(const std::filesystem::path& problems_dir, NewProblem problem);

/// The generated texts (exposed for tests).
std::string problem_json_text(const NewProblem& problem, const PythonSignature& signature);
/// problems/KEY/answer.md's skeleton: a plan that writes nothing, so the answers test fails until
/// the real answer is written.
std::string answer_md_text(const std::string& key);
std::string reference_py_text(const std::string& key, const PythonSignature& signature);
std::string reference_cpp_text(const std::string& key, const PythonSignature& signature);

/// "2,4,8" -> {2, 4, 8}; throws UsageError naming --world-sizes.
std::vector<int> parse_world_sizes(const std::string& text);

}  // namespace pkb::scaffold
