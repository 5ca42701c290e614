// The litmus tests of published PTX memory-model suites (Dat3M's litmus/PTX, NVlabs/mixedproxy's
// tests), one gtest case per file of tests/ptx/litmus/cases (found when ctest runs: a new case
// needs no rebuild). Each case runs under every schedule policy and 20 random seeds on a fresh
// machine with the PTX memory model's race detector on, and must agree with the model: an outcome
// the model forbids is never produced, a racy case is reported as racy (a finding of its class in
// at least one schedule) and a race-free case gets no finding in any schedule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

#include "tests/ptx/litmus/litmus_run.h"

namespace pkb::ptx_test {
namespace {

namespace fs = std::filesystem;

constexpr int kRandomSeeds = 20;

std::vector<std::string> case_files() {
  const fs::path dir = fs::path(PKB_SOURCE_DIR) / "tests/ptx/litmus/cases";
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".litmus") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string case_name(const testing::TestParamInfo<std::string>& info) {
  std::string name = fs::path(info.param).stem().string();
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

class Litmus : public testing::TestWithParam<std::string> {};

TEST_P(Litmus, AgreesWithThePtxMemoryModel) {
  const LitmusCase c = load_litmus_case(GetParam());
  std::map<std::string, int> outcomes;  // outcome -> schedules that produced it
  int error_schedules = 0, warning_schedules = 0;
  std::string first_error, first_warning;
  const auto schedules = litmus_schedules(c.world(), kRandomSeeds);
  for (const auto& schedule : schedules) {
    const LitmusRun run = run_litmus(c, schedule);
    ASSERT_EQ(run.fault, "") << c.file << " under " << schedule_text(schedule) << ":\n" << litmus_module(c);
    const std::string outcome = outcome_text(c, run);
    ++outcomes[outcome];
    if (c.forbidden && condition_holds(c.weak, run.regs, run.memory))
      ADD_FAILURE() << c.file << " (" << c.source << "): the model forbids " << c.weak_text << ", produced under "
                    << schedule_text(schedule) << ": " << outcome;
    if (!run.errors.empty() && error_schedules++ == 0) first_error = schedule_text(schedule) + ": " + run.errors[0];
    if (!run.warnings.empty() && warning_schedules++ == 0)
      first_warning = schedule_text(schedule) + ": " + run.warnings[0];
  }
  std::cout << c.file << " (" << c.source << "): model " << (c.forbidden ? "forbids" : "allows") << " "
            << c.weak_text << "; race " << race_name(c.race) << "; outcomes:";
  for (const auto& [outcome, count] : outcomes) std::cout << " [" << outcome << "] x" << count;
  std::cout << "; detector: errors in " << error_schedules << ", warnings in " << warning_schedules << " of "
            << schedules.size() << " schedules\n";
  if (!first_error.empty()) std::cout << "  first error: " << first_error << "\n";
  if (!first_warning.empty()) std::cout << "  first warning: " << first_warning << "\n";
  const std::string found = "errors in " + std::to_string(error_schedules) + " and warnings in " +
                            std::to_string(warning_schedules) + " of " + std::to_string(schedules.size()) +
                            " schedules" + (first_error.empty() ? "" : "; first error " + first_error) +
                            (first_warning.empty() ? "" : "; first warning " + first_warning);
  if (!c.disagreement.empty()) {
    std::cout << "  expected disagreement (harness/ptx/memory_model/README.md): " << c.disagreement << "\n";
    return;
  }
  switch (c.race) {
    case LitmusRace::none:
      EXPECT_EQ(error_schedules + warning_schedules, 0) << c.file << " is race-free under the PTX model: " << found;
      break;
    case LitmusRace::warning:
      EXPECT_GT(warning_schedules, 0) << c.file << " races only on the consumer side (a warning): " << found;
      EXPECT_EQ(error_schedules, 0) << c.file << " races only on the consumer side (a warning): " << found;
      break;
    case LitmusRace::error:
      EXPECT_GT(error_schedules, 0) << c.file << " has a race the writer's side does not order (an error): " << found;
      break;
  }
}

INSTANTIATE_TEST_SUITE_P(Suites, Litmus, testing::ValuesIn(case_files()), case_name);

}  // namespace
}  // namespace pkb::ptx_test
