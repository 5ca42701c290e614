// Fixture results directories for the score and leaderboard tests: the checked-in trees under
// tests/score/data, and copies in a temp dir that a test may break on purpose.
#pragma once

#include <filesystem>
#include <string>

namespace pkb::test {

/// tests/score/data/NAME in the source tree.
std::filesystem::path fixture_dir(const std::string& name);

/// A fresh copy of fixture NAME under a new temp dir; returns the copy's path.
std::filesystem::path copy_fixture(const std::string& name);

/// A copy of fixture `tree` with the `turns` run added as h200/model-turns (8x NVIDIA H200, W 8,
/// beside model-a and model-b); returns the copy's root.
std::filesystem::path copy_tree_with_turns();

std::string read_text(const std::filesystem::path& path);
void write_text(const std::filesystem::path& path, const std::string& text);

}  // namespace pkb::test
