// Cache keys: the same inputs give the same key wherever the files sit; any input changes it.
#include "src/compile/compile_key.h"

#include <gtest/gtest.h>

#include "tests/compile/compile_fixture.h"

namespace pkb::compile {
namespace {

namespace fs = std::filesystem;

class CompileKeyTest : public CompileTest {
 protected:
  std::string key_for(const std::string& source, const IncludeDirs& dirs,
                      const std::string& arch = "sm_90a") {
    CompileOptions options;
    options.arch = arch;
    return compile_key(source, nvrtc_options(options, symbolic_include_dirs(dirs)), "13.0", arch,
                       dirs);
  }
  IncludeDirs dirs_at(const fs::path& include, const fs::path& shims) {
    return {include, "/cuda", true, shims};
  }
};

TEST_F(CompileKeyTest, IsStableAndIndependentOfWhereTheFoldersAre) {
  const fs::path shims = root() / "shims";
  fs::create_directories(shims);
  write_file(shims / "stdint.h", "#pragma once\n");
  const std::string key = key_for("src", dirs_at(stub_include_dir(), shims));
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key, key_for("src", dirs_at(stub_include_dir(), shims)));
  fs::copy(stub_include_dir(), root() / "moved", fs::copy_options::recursive);
  EXPECT_EQ(key, key_for("src", dirs_at(root() / "moved", shims)));
}

TEST_F(CompileKeyTest, ChangesWithTheSourceTheArchAHeaderOrAShim) {
  const fs::path shims = root() / "shims";
  fs::create_directories(shims);
  write_file(shims / "stdint.h", "#pragma once\n");
  const IncludeDirs dirs = dirs_at(stub_include_dir(), shims);
  const std::string key = key_for("src", dirs);
  EXPECT_NE(key, key_for("src2", dirs));
  EXPECT_NE(key, key_for("src", dirs, "sm_100a"));
  write_file(stub_include_dir() / "pkb/extra.cuh", "// new part\n");
  const std::string with_part = key_for("src", dirs);
  EXPECT_NE(key, with_part);
  write_file(shims / "stdint.h", "#pragma once\n// edited\n");
  EXPECT_NE(with_part, key_for("src", dirs));
}

}  // namespace
}  // namespace pkb::compile
