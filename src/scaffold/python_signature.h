// What a Python reference's `solution` looks like from outside: its tensor arguments, its scalar
// keyword arguments with defaults, and the names it returns. `pkb add-problem --from` uses it to
// pre-fill problem.json, and to refuse a file that does not parse or has no solution.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pkb::scaffold {

struct PythonScalar {
  std::string name;
  bool is_int = false;  // int default -> "int", anything else -> "float"
  double value = 0;
};

struct PythonSignature {
  std::vector<std::string> inputs;   // positional arguments without defaults or int/float hints
  std::vector<PythonScalar> scalars;  // arguments with defaults, `: int`/`: float` or keyword-only
  std::vector<std::string> outputs;  // names in `return a, b` ([] when not plain names)
  bool takes_groups = false;         // a `groups` argument: the problem uses sub-communicators
  std::string summary;               // the docstring's first line
};

/// Parses `file` with python3's ast module (found on PATH, or $PKB_PYTHON). Throws pkb::InputError
/// "FILE: line N: MESSAGE" for a syntax error, "FILE: no top-level def solution(...)" and the like.
/// Without any python3 a plain-text reading of the `def solution(...)` line is used instead.
PythonSignature read_python_signature(const std::filesystem::path& file);

/// The same, from the JSON the embedded python program prints (exposed for tests).
PythonSignature parse_signature_json(const std::string& json, const std::string& file);

/// The plain-text fallback (exposed for tests).
PythonSignature read_signature_text(const std::string& source, const std::string& file);

}  // namespace pkb::scaffold
