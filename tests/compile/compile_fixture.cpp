// The compile tests' fixture (see compile_fixture.h).
#include "tests/compile/compile_fixture.h"

#include <stdlib.h>

#include <fstream>
#include <sstream>

namespace pkb::compile {

namespace fs = std::filesystem;

// The layout facts the tests rely on, nothing else: compiles in a few tens of milliseconds.
constexpr const char* kStubHeader = R"(#pragma once
namespace pkb {
struct Context { int rank; int world; int num_sms; int flags; };
}  // namespace pkb
)";

void CompileTest::SetUp() {
  std::string name = (fs::temp_directory_path() / "pkb-compile-test-XXXXXX").string();
  ASSERT_NE(mkdtemp(name.data()), nullptr);
  root_ = name;
  fs::create_directories(stub_include_dir() / "pkb");
  write_file(stub_include_dir() / "pkb/pkb.cuh", kStubHeader);
}

void CompileTest::TearDown() {
  unsetenv("PKB_NVRTC");
  fs::remove_all(root_);
}

CompileOptions CompileTest::options() const {
  CompileOptions result;
  result.include_dir = stub_include_dir();
  result.cache_dir = cache_dir();
  result.timeout_s = 60;
  return result;
}

void CompileTest::use_fake_nvrtc(const std::string& name, const std::string& script_body) {
  const fs::path script = root_ / name;
  write_file(script, "#!/bin/sh\n" + script_body + "\n");
  fs::permissions(script, fs::perms::owner_all);
  setenv("PKB_NVRTC", script.c_str(), 1);
}

std::string CompileTest::read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void CompileTest::write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace pkb::compile
