// Every example answer in problems/examples/ is correct through a real pkb-worker, at W = 2, 4, 8
// emulated on one GPU, and on W real GPUs where the machine has them.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <iostream>

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
  *out << c.answer.stem().string() << " W=" << c.world << (c.emulated ? " emulated" : " on GPUs");
}

std::vector<Case> cases() {
  std::vector<fs::path> answers;
  for (const auto& entry : fs::directory_iterator(fs::path(PKB_SOURCE_DIR) / "problems/examples"))
    if (entry.path().extension() == ".md") answers.push_back(entry.path());
  std::sort(answers.begin(), answers.end());
  std::vector<Case> all;
  for (const auto& answer : answers)
    for (int world : {2, 4, 8})
      for (bool emulated : {true, false}) all.push_back({answer, world, emulated});
  return all;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string name = info.param.answer.stem().string() + "_W" + std::to_string(info.param.world) +
                     (info.param.emulated ? "_emulated" : "_gpus");
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); },
      '_');
  return name;
}

class ExamplesOnGpu : public testing::TestWithParam<Case> {};

TEST_P(ExamplesOnGpu, AreCorrect) {
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
  std::cout << c.answer.filename().string() << " W=" << c.world << ": " << describe(result) << "\n";
  EXPECT_EQ(result.status, harness::WorkerStatus::correct) << describe(result);
  EXPECT_EQ(result.trials.size(), 3u);
  EXPECT_EQ(result.device.emulated, c.emulated);
  for (const auto& trial : result.trials) EXPECT_TRUE(trial.passed) << trial.summary;
}

INSTANTIATE_TEST_SUITE_P(Examples, ExamplesOnGpu, testing::ValuesIn(cases()), case_name);

}  // namespace
}  // namespace pkb::gpu_test
