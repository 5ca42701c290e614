// In-context examples from problems/examples/: every entry, in name order, as prompt text.
#pragma once

#include <filesystem>
#include <string>

namespace pkb::prompt {

struct ExamplesText {
  std::string text;  // "" when the folder is absent or empty
  int count = 0;
  int skipped = 0;  // entries left out by skip_prefix
};

/// A folder entry becomes "### name" and its files in name order: .md as text, .cu/.cuh as a
/// ```cuda block, .json as a ```json block, .py as a ```python block; a plain file is one example.
/// Entries whose name starts with `skip_prefix` are left out: a prompt for problem 1 must not
/// show a worked answer to problem 1 ("001_..."), or it measures copying.
ExamplesText examples_text(const std::filesystem::path& dir, const std::string& skip_prefix = "");

}  // namespace pkb::prompt
