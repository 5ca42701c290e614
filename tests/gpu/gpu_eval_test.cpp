// Every example answer in problems/examples/ is correct through a real pkb-worker, at W = 2, 4, 8
// emulated on one GPU, and on W real GPUs where the machine has them; so is every reference answer
// whose plan has collective steps, at W = 2 (on one GPU pkb performs the collectives itself,
// harness/device/collective_moves.h).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <iterator>

#include "tests/gpu/gpu_fixture.h"

namespace pkb::gpu_test {
namespace {

namespace fs = std::filesystem;

struct Case {
  fs::path answer;
  int world;
  bool emulated;
};

// How gtest (and so ctest's test names) prints a case.
void PrintTo(const Case& c, std::ostream* out) {
  *out << (c.answer.parent_path().filename() / c.answer.filename()).string() << " W=" << c.world << (c.emulated ? " emulated" : " on GPUs");
}

// "001_allreduce_peer_loads" for an example, "007_reducescatter" for a problem's answer.md.
std::string label(const fs::path& answer) {
  return answer.filename() == "answer.md" ? answer.parent_path().filename().string()
                                          : answer.stem().string();
}

bool uses_collectives(const fs::path& answer) {
  std::ifstream in(answer);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.find("\"op\": \"collective\"") != std::string::npos;
}

std::vector<Case> cases() {
  std::vector<fs::path> examples, answers;
  for (const auto& entry : fs::directory_iterator(fs::path(PKB_SOURCE_DIR) / "problems/examples"))
    if (entry.path().extension() == ".md") examples.push_back(entry.path());
  for (const auto& entry : fs::directory_iterator(fs::path(PKB_SOURCE_DIR) / "problems"))
    if (uses_collectives(entry.path() / "answer.md")) answers.push_back(entry.path() / "answer.md");
  std::sort(examples.begin(), examples.end());
  std::sort(answers.begin(), answers.end());
  std::vector<Case> all;
  for (const auto& answer : examples)
    for (int world : {2, 4, 8})
      for (bool emulated : {true, false}) all.push_back({answer, world, emulated});
  for (const auto& answer : answers)
    for (bool emulated : {true, false}) all.push_back({answer, 2, emulated});
  return all;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string name = label(info.param.answer) + "_W" + std::to_string(info.param.world) +
                     (info.param.emulated ? "_emulated" : "_gpus");
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); },
      '_');
  return name;
}

class AnswersOnGpu : public testing::TestWithParam<Case> {};

TEST_P(AnswersOnGpu, AreCorrect) {
  if (const std::string reason = gpu_missing_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const Case& c = GetParam();
  int gpus = 0;
  cudaGetDeviceCount(&gpus);
  if (!c.emulated && gpus < c.world)
    GTEST_SKIP() << "W = " << c.world << " on real GPUs needs " << c.world
                 << " GPUs, this machine has " << gpus;
  EvalOptions options;
  options.world = c.world;
  options.emulate = c.emulated ? harness::EmulateMode::on : harness::EmulateMode::off;
  const harness::WorkerResult result = eval_answer(c.answer, options);
  std::cout << label(c.answer) << " W=" << c.world << ": " << describe(result) << "\n";
  EXPECT_EQ(result.status, harness::WorkerStatus::correct) << describe(result);
  EXPECT_EQ(result.trials.size(), 3u);
  EXPECT_EQ(result.device.emulated, c.emulated);
  for (const auto& trial : result.trials) EXPECT_TRUE(trial.passed) << trial.summary;
}

INSTANTIATE_TEST_SUITE_P(Examples, AnswersOnGpu, testing::ValuesIn(cases()), case_name);

}  // namespace
}  // namespace pkb::gpu_test
