// The compile cache through compile_cuda: hits, misses, damaged entries, concurrent writers.
#include "src/compile/compile_cache.h"

#include <gtest/gtest.h>

#include <thread>

#include "src/compile/compile.h"
#include "tests/compile/compile_fixture.h"

namespace pkb::compile {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSource =
    R"(extern "C" __global__ void scale(float* out, const float* in, float factor) {
  out[threadIdx.x] = in[threadIdx.x] * factor;
})";

// Folders left in a cache shard besides finished entries (temporary or trash folders).
int stray_folders(const fs::path& cache_dir) {
  int count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(cache_dir))
    if (entry.is_directory() && entry.path().filename().string()[0] == '.') ++count;
  return count;
}

TEST_F(CompileTest, SecondCompileIsACacheHitWithTheSameCubin) {
  const CompileResult cold = compile_cuda(kSource, options());
  ASSERT_TRUE(cold.ok) << cold.log;
  EXPECT_FALSE(cold.cache_hit);
  // NVRTC's log and ptxas's part of it each end in a terminator; neither reaches a record.
  EXPECT_NE(cold.log.find("ptxas info"), std::string::npos) << cold.log;
  EXPECT_EQ(cold.log.find('\0'), std::string::npos);
  const fs::path entry = cache_dir() / cold.key.substr(0, 2) / cold.key;
  for (const char* file : {"result.json", "kernel.cubin", "kernel.ptx", "compile.log"})
    EXPECT_TRUE(fs::is_regular_file(entry / file)) << file;
  EXPECT_FALSE(fs::exists(entry / "source.cu")) << "the request files are not kept";

  const CompileResult hit = compile_cuda(kSource, options());
  ASSERT_TRUE(hit.ok);
  EXPECT_TRUE(hit.cache_hit);
  EXPECT_EQ(hit.key, cold.key);
  EXPECT_EQ(hit.cubin, cold.cubin);
  EXPECT_EQ(hit.ptx, cold.ptx);
  EXPECT_EQ(hit.log, cold.log);
  EXPECT_EQ(hit.options, cold.options);
  ASSERT_EQ(hit.kernels.size(), 1u);
  EXPECT_EQ(hit.kernels[0].params.size(), 3u);
  EXPECT_LT(hit.seconds, cold.seconds);
  EXPECT_EQ(stray_folders(cache_dir()), 0);
}

TEST_F(CompileTest, ACacheHitStartsNoChild) {
  const CompileResult cold = compile_cuda(kSource, options());
  ASSERT_TRUE(cold.ok) << cold.log;
  // A child that would leave a mark; it answers --version like the real one, so the key is the
  // same.
  use_fake_nvrtc("marking-nvrtc", "[ \"$1\" = --version ] && { echo " + cold.nvrtc_version +
                                      "; exit 0; }\ntouch " + (root() / "child-ran").string() +
                                      "\nexit 1");
  const CompileResult hit = compile_cuda(kSource, options());
  EXPECT_TRUE(hit.cache_hit);
  EXPECT_FALSE(fs::exists(root() / "child-ran"));
}

TEST_F(CompileTest, AChangedOptionOrSourceMissesTheCache) {
  const CompileResult cold = compile_cuda(kSource, options());
  ASSERT_TRUE(cold.ok) << cold.log;
  CompileOptions other = options();
  other.extra_options = {"-DUNUSED=1"};
  const CompileResult changed_option = compile_cuda(kSource, other);
  EXPECT_FALSE(changed_option.cache_hit);
  EXPECT_NE(changed_option.key, cold.key);
  const CompileResult changed_source =
      compile_cuda(std::string(kSource) + "\n// edited\n", options());
  EXPECT_FALSE(changed_source.cache_hit);
  EXPECT_NE(changed_source.key, cold.key);
  EXPECT_NE(changed_source.key, changed_option.key);
}

TEST_F(CompileTest, AChangedDeviceHeaderMissesTheCache) {
  const CompileResult cold = compile_cuda(kSource, options());
  write_file(stub_include_dir() / "pkb/pkb.cuh",
             read_file(stub_include_dir() / "pkb/pkb.cuh") + "// edited\n");
  const CompileResult after = compile_cuda(kSource, options());
  EXPECT_FALSE(after.cache_hit);
  EXPECT_NE(after.key, cold.key);
}

TEST_F(CompileTest, ADamagedEntryIsRecompiledAndReplaced) {
  const CompileResult cold = compile_cuda(kSource, options());
  ASSERT_TRUE(cold.ok) << cold.log;
  const fs::path entry = cache_dir() / cold.key.substr(0, 2) / cold.key;
  for (const char* file : {"kernel.cubin", "result.json", "kernel.ptx"}) {
    write_file(entry / file, "garbage");
    EXPECT_FALSE(load_cached(cache_dir(), cold.key).has_value()) << file;
    const CompileResult again = compile_cuda(kSource, options());
    EXPECT_FALSE(again.cache_hit) << file;
    EXPECT_TRUE(again.ok) << file;
    EXPECT_EQ(again.cubin, cold.cubin) << file;
    EXPECT_TRUE(compile_cuda(kSource, options()).cache_hit) << "entry repaired after " << file;
  }
  fs::remove(entry / "compile.log");
  EXPECT_FALSE(compile_cuda(kSource, options()).cache_hit);
  EXPECT_EQ(stray_folders(cache_dir()), 0);
}

TEST_F(CompileTest, CompileErrorsAreCachedToo) {
  const std::string broken = "extern \"C\" __global__ void k() { undeclared = 1; }\n";
  const CompileResult cold = compile_cuda(broken, options());
  EXPECT_FALSE(cold.ok);
  const CompileResult hit = compile_cuda(broken, options());
  EXPECT_TRUE(hit.cache_hit);
  EXPECT_FALSE(hit.ok);
  EXPECT_EQ(hit.log, cold.log);
  EXPECT_NE(hit.log.find("undeclared"), std::string::npos);
}

TEST_F(CompileTest, TwoWritersOfOneEntryAgree) {
  CompileResult results[2];
  std::thread first([&] { results[0] = compile_cuda(kSource, options()); });
  std::thread second([&] { results[1] = compile_cuda(kSource, options()); });
  first.join();
  second.join();
  ASSERT_TRUE(results[0].ok && results[1].ok);
  EXPECT_EQ(results[0].cubin, results[1].cubin);
  EXPECT_TRUE(compile_cuda(kSource, options()).cache_hit);
  EXPECT_EQ(stray_folders(cache_dir()), 0);
}

TEST_F(CompileTest, NoCacheDirMeansNoCache) {
  CompileOptions uncached = options();
  uncached.cache_dir.clear();
  EXPECT_TRUE(compile_cuda(kSource, uncached).ok);
  EXPECT_FALSE(compile_cuda(kSource, uncached).cache_hit);
  EXPECT_FALSE(fs::exists(cache_dir()));
}

}  // namespace
}  // namespace pkb::compile
