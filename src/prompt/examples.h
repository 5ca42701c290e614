// In-context examples from problems/examples/: every entry, in name order, as prompt text.
#pragma once

#include <filesystem>
#include <string>

namespace pkb::prompt {

struct ExamplesText {
  std::string text;  // "" when the folder is absent or empty
  int count = 0;
};

/// A folder entry becomes "### name" and its files in name order: .md as text, .cu/.cuh as a
/// ```cuda block, .json as a ```json block, .py as a ```python block; a plain file is one example.
ExamplesText examples_text(const std::filesystem::path& dir);

}  // namespace pkb::prompt
