// Every example answer in problems/examples/ goes through the CPU half of evaluation (extract,
// NVRTC for sm_90a, plan resolved against its problem) at every world size the problem allows,
// at test and bench dims, and ends `compiled`. A broken example or an ABI drift fails here.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "src/eval/eval.h"
#include "src/problem/dims.h"
#include "src/problem/spec_loader.h"

namespace pkb::eval {
namespace {

namespace fs = std::filesystem;

fs::path problem_dir_of(const fs::path& example) {
  const std::string prefix = example.filename().string().substr(0, 4);  // "001_"
  for (const auto& entry : fs::directory_iterator(fs::path(PKB_SOURCE_DIR) / "problems"))
    if (entry.path().filename().string().rfind(prefix, 0) == 0 && fs::exists(entry.path() / "problem.json"))
      return entry.path();
  return {};
}

std::vector<fs::path> examples() {
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(fs::path(PKB_SOURCE_DIR) / "problems" / "examples"))
    if (entry.path().extension() == ".md") paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(EvalExamples, EveryExampleCompilesAndItsPlanFitsEveryWorldSize) {
  const auto paths = examples();
  ASSERT_GE(paths.size(), 4u) << "problems/examples/ should hold the allreduce, allgather, reduce-scatter and "
                                 "gemm + reduce-scatter examples";
  Target target;  // sm_90a, H100/H200 limits, no GPU: evaluation stops at `compiled`
  target.no_gpu_reason = "test";
  // One compile per example and W: the sources do not change with the dims.
  const fs::path cache = fs::temp_directory_path() / ("pkb-eval-examples-" + std::to_string(::getpid()));
  for (const auto& path : paths) {
    const fs::path dir = problem_dir_of(path);
    ASSERT_FALSE(dir.empty()) << path << ": no problem folder with its number";
    const auto spec = problem::load_problem(dir);
    const Candidate candidate = load_candidate(path, {});
    ASSERT_FALSE(candidate.format_error) << path << ": " << *candidate.format_error;
    for (int world : spec.world_sizes)
      for (auto base : {problem::DimsBase::test, problem::DimsBase::bench}) {
        EvalRequest request;
        request.spec = &spec;
        request.world = world;
        request.dtype = DType::bf16;
        request.cache_dir = cache;
        request.dims = problem::select_dims(spec, base == problem::DimsBase::test ? "test" : "bench", base);
        const EvalOutcome outcome = evaluate(candidate, request, target);
        EXPECT_EQ(outcome.status, SampleStatus::compiled)
            << path.filename() << " W=" << world << (base == problem::DimsBase::test ? " test" : " bench")
            << " dims: " << outcome.message << "\n" << outcome.compile.log;
        EXPECT_TRUE(outcome.warnings.empty()) << path.filename() << ": " << outcome.warnings.front();
      }
  }
  fs::remove_all(cache);
}

}  // namespace
}  // namespace pkb::eval
