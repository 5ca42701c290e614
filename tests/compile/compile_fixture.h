// Shared set-up of the compile tests: a temporary folder holding a cache and a small stand-in for
// harness/include/pkb/pkb.cuh (so these tests do not hang on the real header's compile time), and
// a helper to point $PKB_NVRTC at a fake child for the failure cases.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "src/compile/compile.h"

namespace pkb::compile {

class CompileTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  /// Options with the stand-in include folder, a 60 s deadline and the cache under root().
  CompileOptions options() const;
  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path cache_dir() const { return root_ / "cache"; }
  std::filesystem::path stub_include_dir() const { return root_ / "include"; }

  /// Writes an executable shell script under root() and points $PKB_NVRTC at it until TearDown.
  void use_fake_nvrtc(const std::string& name, const std::string& script_body);

  static std::string read_file(const std::filesystem::path& path);
  static void write_file(const std::filesystem::path& path, const std::string& bytes);

 private:
  std::filesystem::path root_;
};

}  // namespace pkb::compile
