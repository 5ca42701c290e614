// Every problem's reference answer (problems/NNN_name/answer.md, and answer_WAY.md where a second
// one is written another way) and every worked example of problems/examples/ goes through the CPU
// half of evaluation — extract, NVRTC for sm_90a, the plan resolved against its problem — at every
// world size, every dtype the problem lists, and at test and bench dims, and must end `compiled`.
// A problem without an answer fails here, so a problem added later needs one too
// (docs/ADDING_A_PROBLEM.md). Judging the answers needs a GPU: scripts/gpu-check.sh does that.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <future>

#include "src/common/remove_tree.h"
#include "src/eval/eval.h"
#include "src/problem/dims.h"
#include "src/problem/spec_loader.h"

namespace pkb::eval {
namespace {

namespace fs = std::filesystem;

const fs::path kProblems = fs::path(PKB_SOURCE_DIR) / "problems";

std::vector<fs::path> problem_dirs() {
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(kProblems))
    if (fs::exists(entry.path() / "problem.json")) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

/// A problem's second reference answer, written another way: answer_WAY.md (answer_grouped.md
/// uses the plan's grouped collectives).
bool is_second_answer(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.rfind("answer_", 0) == 0 && path.extension() == ".md";
}

/// (answer file, its problem folder): every answer.md and answer_WAY.md, then every example
/// (matched by number).
std::vector<std::pair<fs::path, fs::path>> answers() {
  std::vector<std::pair<fs::path, fs::path>> out;
  const auto dirs = problem_dirs();
  for (const auto& dir : dirs) {
    if (fs::exists(dir / "answer.md")) out.push_back({dir / "answer.md", dir});
    std::vector<fs::path> second;
    for (const auto& entry : fs::directory_iterator(dir))
      if (is_second_answer(entry.path())) second.push_back(entry.path());
    std::sort(second.begin(), second.end());
    for (const auto& path : second) out.push_back({path, dir});
  }
  std::vector<fs::path> examples;
  for (const auto& entry : fs::directory_iterator(kProblems / "examples"))
    if (entry.path().extension() == ".md") examples.push_back(entry.path());
  std::sort(examples.begin(), examples.end());
  for (const auto& example : examples) {
    const std::string prefix = example.filename().string().substr(0, 4);  // "001_"
    for (const auto& dir : dirs)
      if (dir.filename().string().rfind(prefix, 0) == 0) out.push_back({example, dir});
  }
  return out;
}

std::string name_of(const fs::path& answer, const fs::path& dir) {
  if (answer.filename() == "answer.md") return dir.filename().string();
  if (is_second_answer(answer))  // "048_fsdp_and_tp_grouped"
    return dir.filename().string() + answer.stem().string().substr(6);
  return "example_" + answer.stem().string();
}

TEST(EvalAnswers, EveryProblemHasAReferenceAnswer) {
  std::string missing;
  for (const auto& dir : problem_dirs())
    if (!fs::exists(dir / "answer.md")) missing += " " + dir.filename().string();
  EXPECT_TRUE(missing.empty()) << "problems without answer.md:" << missing;
}

class EvalAnswer : public ::testing::TestWithParam<std::pair<fs::path, fs::path>> {
 protected:
  static void SetUpTestSuite() {
    cache_ = fs::temp_directory_path() / ("pkb-eval-answers-" + std::to_string(::getpid()));
  }
  static void TearDownTestSuite() { remove_tree(cache_); }
  static fs::path cache_;
};
fs::path EvalAnswer::cache_;

// One compile per dtype (the source does not change with the dims, nor with W unless it names
// PKB_WORLD); the dtypes run side by side, each its own NVRTC child.
TEST_P(EvalAnswer, CompilesAndItsPlanFitsEveryWorldDtypeAndDims) {
  const auto& [path, dir] = GetParam();
  const auto spec = problem::load_problem(dir);
  const Candidate candidate = load_candidate(path, {});
  ASSERT_FALSE(candidate.format_error) << path << ": " << *candidate.format_error;
  Target target;  // sm_90a, H100/H200 limits, no GPU: evaluation stops at `compiled`
  target.no_gpu_reason = "test";
  auto check_dtype = [&](DType dtype) {
    std::string failures;
    for (int world : spec.world_sizes)
      for (const char* dims : {"test", "bench"}) {
        EvalRequest request;
        request.spec = &spec;
        request.world = world;
        request.dtype = dtype;
        request.cache_dir = cache_;
        request.dims = problem::select_dims(spec, dims, problem::DimsBase::test);
        const EvalOutcome outcome = evaluate(candidate, request, target);
        const std::string at = "W=" + std::to_string(world) + " " + std::string(dtype_name(dtype)) + " " + dims;
        if (outcome.status != results::SampleStatus::compiled)
          failures += at + ": " + std::string(results::status_name(outcome.status)) + ": " + outcome.message + "\n" +
                      (outcome.status == results::SampleStatus::compile_error ? outcome.compile.log : "");
        for (const auto& warning : outcome.warnings) failures += at + ": warning: " + warning + "\n";
      }
    return failures;
  };
  std::vector<std::future<std::string>> runs;
  for (DType dtype : spec.dtypes) runs.push_back(std::async(std::launch::async, check_dtype, dtype));
  std::string failures;
  for (auto& run : runs) failures += run.get();
  EXPECT_TRUE(failures.empty()) << path << ":\n" << failures;
}

INSTANTIATE_TEST_SUITE_P(Answer, EvalAnswer, ::testing::ValuesIn(answers()),
                         [](const ::testing::TestParamInfo<std::pair<fs::path, fs::path>>& param_info) {
                           return name_of(param_info.param.first, param_info.param.second);
                         });

}  // namespace
}  // namespace pkb::eval
