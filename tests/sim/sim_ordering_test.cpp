// The memory model on whole answers (tests/sim/ordering): a kernel that pushes data into its
// peers and raises a flag is correct with a system-scope release and acquire (fences,
// st.release/ld.acquire, pkb's helpers) and incorrect without a writer fence, with GPU-scope
// fences or with .gpu release/acquire; a volatile poll without an acquire is correct with a
// warning; two blocks of one rank are correct with GPU-scope fences and incorrect without, or
// with block-scope ones. Each file's first lines give its verdict (and warning); each is judged at
// W = 2, 4 and 8. Memory reached through its multicast and its unicast address needs
// fence.proxy.alias between (pkb::barrier_block has it; release/acquire flags alone do not). Under --memory-model sc every one of them is correct: the detector is what
// tells them apart.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>

#include "tests/gpu/gpu_fixture.h"

namespace pkb::gpu_test {
namespace {

namespace fs = std::filesystem;

struct OrderingCase {
  fs::path answer;
  int world = 2;
  std::string verdict;  // "correct" or "incorrect"
  bool warning = false;
};

void PrintTo(const OrderingCase& c, std::ostream* out) { *out << c.answer.filename().string() << " W=" << c.world; }

std::vector<OrderingCase> cases() {
  std::vector<OrderingCase> out;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(PKB_SOURCE_DIR) / "tests/sim/ordering"))
    if (entry.path().extension() == ".md") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file);
    std::string head((std::istreambuf_iterator<char>(in)), {});
    head = head.substr(0, head.find("```"));
    const auto at = head.find("Expected verdict: ");
    if (at == std::string::npos) continue;  // caught by NamesItsVerdict below
    const std::string verdict = head.substr(at + 18, head.find('.', at) - at - 18);
    for (int world : {2, 4, 8})
      out.push_back({file, world, verdict, head.find("Expected warning") != std::string::npos});
  }
  return out;
}

std::string case_name(const testing::TestParamInfo<OrderingCase>& info) {
  std::string name = info.param.answer.stem().string() + "_W" + std::to_string(info.param.world);
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

class OrderingOnTheSimulatedNode : public testing::TestWithParam<OrderingCase> {};

TEST_P(OrderingOnTheSimulatedNode, GetsItsVerdict) {
  const OrderingCase& c = GetParam();
  EvalOptions options;
  options.simulated = true;
  options.world = c.world;
  options.trials = 2;
  const harness::WorkerResult result = eval_answer(c.answer, options);
  std::cout << c.answer.filename().string() << " W=" << c.world << ": " << describe(result) << "\n";
  EXPECT_EQ(std::string(harness::worker_status_name(result.status)), c.verdict) << describe(result);
  ASSERT_TRUE(result.simulation.has_value());
  EXPECT_EQ(result.simulation->memory_model, "ptx");
  if (c.verdict == "incorrect") {
    // The message names both accesses and the memory, and says what would order them.
    EXPECT_NE(result.message.find("data race under the PTX memory model"), std::string::npos) << result.message;
    EXPECT_NE(result.message.find(", and earlier a"), std::string::npos) << result.message;
    EXPECT_NE(result.message.find("by kernel "), std::string::npos) << result.message;
    EXPECT_NE(result.message.find("candidate.cu:"), std::string::npos) << result.message;
    EXPECT_TRUE(result.message.find("__threadfence") != std::string::npos ||
                result.message.find("pkb::") != std::string::npos)
        << result.message;
  }
  if (c.warning) {
    ASSERT_FALSE(result.simulation->warnings.empty()) << "expected a warning: " << describe(result);
    EXPECT_NE(result.simulation->warnings[0].find("consumer without acquire"), std::string::npos);
  } else {
    EXPECT_TRUE(result.simulation->warnings.empty()) << result.simulation->warnings[0];
  }
}

INSTANTIATE_TEST_SUITE_P(Ordering, OrderingOnTheSimulatedNode, testing::ValuesIn(cases()), case_name);

TEST(OrderingOnTheSimulatedNode, EveryFileNamesItsVerdict) {
  int files = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(PKB_SOURCE_DIR) / "tests/sim/ordering"))
    if (entry.path().extension() == ".md") ++files;
  EXPECT_EQ(static_cast<std::size_t>(files) * 3, cases().size());
  EXPECT_GE(files, 9);
}

// Sequential consistency sees none of these races: every racy kernel passes under `sc`.
TEST(OrderingOnTheSimulatedNode, SequentialConsistencyCallsTheRacesCorrect) {
  for (const auto& c : cases()) {
    if (c.world != 2) continue;
    EvalOptions options;
    options.simulated = true;
    options.world = 2;
    options.trials = 1;
    options.memory_model = "sc";
    const harness::WorkerResult result = eval_answer(c.answer, options);
    EXPECT_EQ(result.status, harness::WorkerStatus::correct) << c.answer << ": " << describe(result);
    ASSERT_TRUE(result.simulation.has_value());
    EXPECT_EQ(result.simulation->memory_model, "sc");
    EXPECT_TRUE(result.simulation->warnings.empty());
  }
}

}  // namespace
}  // namespace pkb::gpu_test
