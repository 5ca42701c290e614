// The litmus case format (litmus_case.h): a case file's fields, placement and condition are read
// as written, and a malformed file is refused with its name, line and what is wrong.
#include "tests/ptx/litmus/litmus_case.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace pkb::ptx_test {
namespace {

namespace fs = std::filesystem;

const char* const kCase = R"(# message passing across ranks
source: owner/repo litmus/MP.litmus
commit: 0123
verdict_from: a test
locations: x=0 y=7
home: 1
thread P0 rank=0 block=0 thread=0
  st.weak.global.u32 [x], 1;
thread P1 rank=2 block=1 thread=32
  ld.weak.global.u32 %r1, [y];
  ld.weak.global.u32 %r2, [x];
weak: P1:r1 == 1 && P1:r2 != 1 || y == 0
model: forbidden
race: warning
why: a reason
)";

std::string write_case(const std::string& name, const std::string& text) {
  const fs::path path = fs::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

std::string load_error(const std::string& name, const std::string& text) {
  try {
    load_litmus_case(write_case(name, text));
  } catch (const std::runtime_error& error) {
    return std::string(error.what()).substr(fs::temp_directory_path().string().size() + 1);
  }
  return "";
}

TEST(LitmusCase, ReadsFieldsPlacementAndCondition) {
  const LitmusCase c = load_litmus_case(write_case("litmus_case_ok.litmus", kCase));
  EXPECT_EQ(c.source, "owner/repo litmus/MP.litmus");
  EXPECT_EQ(c.home, 1);
  ASSERT_EQ(c.locations.size(), 2u);
  EXPECT_EQ(c.locations[1].initial, 7u);
  ASSERT_EQ(c.threads.size(), 2u);
  EXPECT_EQ(c.threads[1].body.size(), 2u);
  EXPECT_EQ(c.world(), 3);
  EXPECT_EQ(c.blocks(), 2);
  EXPECT_EQ(c.threads_per_block(), 33);
  EXPECT_TRUE(c.forbidden);
  EXPECT_EQ(c.race, LitmusRace::warning);
  std::vector<std::vector<std::uint32_t>> regs(2, std::vector<std::uint32_t>(16, 0));
  regs[1][1] = 1;
  EXPECT_TRUE(condition_holds(c.weak, regs, {1, 7}));  // r1 == 1 && r2 (0) != 1
  regs[1][2] = 1;
  EXPECT_FALSE(condition_holds(c.weak, regs, {1, 7}));
  EXPECT_TRUE(condition_holds(c.weak, regs, {1, 0}));  // y == 0
}

TEST(LitmusCase, RefusesMalformedFilesNamingTheLine) {
  std::string text = kCase;
  EXPECT_EQ(load_error("litmus_bad_key.litmus", text + "verdict: x\n"),
            "litmus_bad_key.litmus:16: unknown key 'verdict'");
  EXPECT_EQ(load_error("litmus_bad_race.litmus", std::string(kCase).replace(text.find("race: warning"), 13, "race: maybe")),
            "litmus_bad_race.litmus:14: race: is none, warning or error");
  EXPECT_EQ(load_error("litmus_bad_thread.litmus", std::string(kCase).replace(text.find("thread=32"), 9, "lane=32")),
            "litmus_bad_thread.litmus:9: thread P1: 'lane=32' is not rank=R, block=B or thread=T");
  EXPECT_EQ(load_error("litmus_bad_cond.litmus", std::string(kCase).replace(text.find("P1:r1 =="), 8, "P7:r1 ==")),
            "litmus_bad_cond.litmus:12: condition names thread 'P7', which the case does not have");
  EXPECT_EQ(load_error("litmus_bad_space.litmus", text + "space: shared\n"),
            "litmus_bad_space.litmus: space: shared needs every thread in block 0 of rank 0 (P1 is not)");
  EXPECT_EQ(load_error("litmus_no_why.litmus", std::string(kCase).replace(text.find("why: a reason"), 13, "")),
            "litmus_no_why.litmus: the case has no 'why:' line");
}

}  // namespace
}  // namespace pkb::ptx_test
