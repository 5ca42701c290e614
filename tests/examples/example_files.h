// Shared by the tests of this folder: where the device header and the examples are, and the
// compile options every test starts from.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "src/compile/compile.h"

namespace pkb::examples_test {

/// harness/include of this source tree (the tests check this tree's pkb.cuh, not an installed one).
std::filesystem::path include_dir();

/// problems/examples/*.md, sorted.
std::vector<std::filesystem::path> example_files();

/// The whole file.
std::string read_text(const std::filesystem::path& path);

/// The harness's options for arch and multicast, with no cache and a 60 s deadline.
compile::CompileOptions compile_options(const std::string& arch, bool multicast, int world);

}  // namespace pkb::examples_test
