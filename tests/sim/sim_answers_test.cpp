// Every problem's reference answer (problems/NNN_name/answer.md, and answer_WAY.md where a
// problem has a second one) and every worked example of problems/examples is judged `correct` on
// the simulated node at its smallest and largest
// world size (bf16, test dims and the shapes drawn under the size rules, as pkb eval judges by
// default), and every mutant of tests/sim/mutants (a plausible wrong answer per problem) gets the
// verdict its first line names (`incorrect`, or `plan_error`) at the largest: the check catches
// what a model gets wrong,
// and accepts what it gets right. Each case is its own ctest entry, so `ctest -j` spreads them
// over the cores; compiles share one cache.
// scripts/sim-sweep.sh runs the answers at every world size and dtype.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "src/eval/eval.h"
#include "src/problem/spec_loader.h"

namespace pkb::eval {
namespace {

namespace fs = std::filesystem;

const fs::path kProblems = fs::path(PKB_SOURCE_DIR) / "problems";
const fs::path kMutants = fs::path(PKB_SOURCE_DIR) / "tests/sim/mutants";

struct Case {
  fs::path answer;
  fs::path problem;
  int world = 0;
  bool mutant = false;
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.answer.parent_path().filename().string() << "/" << c.answer.filename().string() << " W=" << c.world;
}

// The problem folder of a mutant file named NNN_name.md or NNN_name.K.md.
fs::path problem_of(const fs::path& mutant) {
  const std::string stem = mutant.stem().string();
  return kProblems / stem.substr(0, stem.find('.'));
}

std::vector<Case> cases() {
  std::vector<Case> out;
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(kProblems))
    if (fs::exists(entry.path() / "answer.md")) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  for (const auto& dir : dirs) {
    const auto spec = problem::load_problem(dir);
    // answer.md, then any second answer written another way (answer_grouped.md: grouped collectives).
    std::vector<fs::path> answers{dir / "answer.md"};
    std::vector<fs::path> second;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("answer_", 0) == 0 && entry.path().extension() == ".md") second.push_back(entry.path());
    }
    std::sort(second.begin(), second.end());
    answers.insert(answers.end(), second.begin(), second.end());
    for (const auto& answer : answers)
      for (int world : {spec.world_sizes.front(), spec.world_sizes.back()}) {
        out.push_back({answer, dir, world, false});
        if (spec.world_sizes.size() == 1) break;
      }
  }
  // The worked examples the prompt shows (problems/examples/NNN_*.md), as a model would copy them.
  std::vector<fs::path> examples;
  for (const auto& entry : fs::directory_iterator(kProblems / "examples"))
    if (entry.path().extension() == ".md") examples.push_back(entry.path());
  std::sort(examples.begin(), examples.end());
  for (const auto& example : examples) {
    const std::string number = example.filename().string().substr(0, 4);  // "001_"
    for (const auto& dir : dirs)
      if (dir.filename().string().rfind(number, 0) == 0) {
        const auto worlds = problem::load_problem(dir).world_sizes;
        out.push_back({example, dir, worlds.front(), false});
        if (worlds.size() > 1) out.push_back({example, dir, worlds.back(), false});
      }
  }
  std::vector<fs::path> mutants;
  if (fs::exists(kMutants))
    for (const auto& entry : fs::directory_iterator(kMutants))
      if (entry.path().extension() == ".md") mutants.push_back(entry.path());
  std::sort(mutants.begin(), mutants.end());
  for (const auto& mutant : mutants) {
    const fs::path dir = problem_of(mutant);
    const auto worlds = problem::load_problem(dir).world_sizes;
    // "Expected verdict: incorrect at every W." asks for the smallest W too.
    std::ifstream in(mutant);
    std::string first;
    std::getline(in, first);
    if (first.find("at every W") != std::string::npos && worlds.size() > 1)
      out.push_back({mutant, dir, worlds.front(), true});
    out.push_back({mutant, dir, worlds.back(), true});
  }
  return out;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  const std::string stem = info.param.answer.stem().string();
  const bool example = info.param.answer.parent_path().filename() == "examples";
  std::string name = (info.param.mutant ? "mutant_" + stem
                      : example          ? "example_" + stem
                      : stem == "answer" ? info.param.problem.filename().string()
                                         : info.param.problem.filename().string() + stem.substr(6)) +  // "_grouped"
                     "_W" + std::to_string(info.param.world);
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

// A mutant's first line ends "Expected verdict: incorrect." (or plan_error, for a plan that only
// fits the small sizes; "... at every W." judges it at the smallest W too); an answer is correct.
std::string expected_verdict(const Case& c) {
  if (!c.mutant) return "correct";
  std::ifstream in(c.answer);
  std::string first;
  std::getline(in, first);
  const std::string marker = "Expected verdict: ";
  const auto at = first.rfind(marker);
  if (at == std::string::npos) return "a first line naming the expected verdict";
  std::string verdict;  // the status name: letters and underscores, up to "." or " (at W = 2 ...)"
  for (std::size_t i = at + marker.size(); i < first.size() && (std::islower(static_cast<unsigned char>(first[i])) || first[i] == '_'); ++i)
    verdict += first[i];
  return verdict;
}

fs::path cache_dir() { return fs::temp_directory_path() / ("pkb-test-nvrtc-" + std::to_string(::getuid())); }

class OnTheSimulatedNode : public testing::TestWithParam<Case> {};

TEST_P(OnTheSimulatedNode, IsJudgedAsItShouldBe) {
  const Case& c = GetParam();
  const auto spec = problem::load_problem(c.problem);
  const Candidate candidate = load_candidate(c.answer, {});
  ASSERT_FALSE(candidate.format_error) << *candidate.format_error;
  EvalRequest request;
  request.spec = &spec;
  request.world = c.world;
  request.dtype = DType::bf16;
  request.dims = spec.test_dims;
  request.cache_dir = cache_dir();
  request.run_timeout_s = 300;
  const Target target = choose_target("sm_90a", c.world, DeviceChoice::sim);
  const EvalOutcome outcome = evaluate(candidate, request, target);
  const std::string expected = expected_verdict(c);
  EXPECT_EQ(std::string(results::status_name(outcome.status)), expected)
      << c.answer << " W=" << c.world << ": " << outcome.message << "\n" << outcome.compile.log;
  if (expected != "plan_error") {
    EXPECT_EQ(outcome.judged_by, "sim");
  }
  std::cout << c.answer.filename().string() << " W=" << c.world << ": " << results::status_name(outcome.status)
            << ": " << outcome.message.substr(0, 300) << "\n";
}

INSTANTIATE_TEST_SUITE_P(Answers, OnTheSimulatedNode, testing::ValuesIn(cases()), case_name);

}  // namespace
}  // namespace pkb::eval
