// compile_cuda on a small all-reduce kernel (tests/compile/data/bench/allreduce.cu), sm_90a, the
// real pkb.cuh pre-included: without a cache, a miss that also writes the cache entry, and a hit.
// scripts/bench-compile.sh runs it beside nvcc and a torch extension build of the same kernel.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "src/compile/compile.h"

namespace {

namespace fs = std::filesystem;
using pkb::compile::compile_cuda;
using pkb::compile::CompileOptions;

std::string bench_source() {
  std::ifstream in(PKB_SOURCE_DIR "/tests/compile/data/bench/allreduce.cu");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fresh folder under the system temp folder, removed when the benchmark ends.
struct TempFolder {
  fs::path path;
  TempFolder() {
    std::string name = (fs::temp_directory_path() / "pkb-compile-bench-XXXXXX").string();
    if (mkdtemp(name.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path = name;
  }
  ~TempFolder() { fs::remove_all(path); }
};

CompileOptions bench_options() {
  CompileOptions options;
  options.arch = "sm_90a";
  options.world = 8;
  return options;
}

void check(benchmark::State& state, const pkb::compile::CompileResult& result, bool want_hit) {
  if (!result.ok) state.SkipWithError(("compile failed: " + result.log).c_str());
  if (result.cache_hit != want_hit) state.SkipWithError("unexpected cache behaviour");
}

void BM_CompileCuda_NoCache(benchmark::State& state) {
  const std::string source = bench_source();
  const CompileOptions options = bench_options();
  for (auto _ : state) check(state, compile_cuda(source, options), false);
}

void BM_CompileCuda_CacheMiss(benchmark::State& state) {
  const std::string source = bench_source();
  const TempFolder folder;
  CompileOptions options = bench_options();
  int round = 0;
  for (auto _ : state) {
    options.cache_dir = folder.path / std::to_string(round++);  // empty: a miss that stores
    check(state, compile_cuda(source, options), false);
  }
}

void BM_CompileCuda_CacheHit(benchmark::State& state) {
  const std::string source = bench_source();
  const TempFolder folder;
  CompileOptions options = bench_options();
  options.cache_dir = folder.path;
  compile_cuda(source, options);  // fills the entry
  for (auto _ : state) check(state, compile_cuda(source, options), true);
}

}  // namespace

BENCHMARK(BM_CompileCuda_NoCache)->Name("BM_CompileCuda/no_cache")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompileCuda_CacheMiss)
    ->Name("BM_CompileCuda/cache_miss")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompileCuda_CacheHit)->Name("BM_CompileCuda/cache_hit")->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
