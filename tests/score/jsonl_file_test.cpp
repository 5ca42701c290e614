// The one rule for damaged lines of a results file (src/results/jsonl_file.h): only a last line
// without its newline may be cut short, and it is named, not silently dropped; anything else that
// is not a JSON object is a corrupt file, named by line.
#include "src/results/jsonl_file.h"

#include <gtest/gtest.h>

#include <fstream>

#include "src/common/error.h"

namespace pkb::results {
namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(JsonlFile, ReadsEveryRecordAndSkipsBlankLines) {
  const auto file = read_jsonl(write_temp("plain.jsonl", "{\"a\": 1}\n\n{\"a\": 2}\n"), "plain.jsonl");
  ASSERT_EQ(file.lines.size(), 2u);
  EXPECT_EQ(file.lines[1].number, 3);
  EXPECT_EQ(file.lines[1].text, "{\"a\": 2}");
  EXPECT_EQ(file.lines[1].record["a"], 2);
  EXPECT_FALSE(file.torn_line);
  EXPECT_FALSE(file.missing_final_newline);
  EXPECT_EQ(jsonl_text(file.lines), "{\"a\": 1}\n{\"a\": 2}\n");
}

TEST(JsonlFile, NamesATornLastLineWithoutDroppingTheOthers) {
  const auto file = read_jsonl(write_temp("torn.jsonl", "{\"a\": 1}\n{\"a\": 2}\n{\"a\": "), "torn.jsonl");
  EXPECT_EQ(file.lines.size(), 2u);
  EXPECT_EQ(file.torn_line, 3);
  EXPECT_TRUE(file.missing_final_newline);
}

TEST(JsonlFile, AWholeLastLineWithoutItsNewlineIsKeptAndFlagged) {
  const auto file = read_jsonl(write_temp("whole.jsonl", "{\"a\": 1}\n{\"a\": 2}"), "whole.jsonl");
  EXPECT_EQ(file.lines.size(), 2u);
  EXPECT_FALSE(file.torn_line);
  EXPECT_TRUE(file.missing_final_newline) << "an appender must rewrite before adding a line";
}

TEST(JsonlFile, ADamagedLineWithItsNewlineIsACorruptFile) {
  for (const std::string text : {"{\"a\": 1}\n{\"a\": \n{\"a\": 3}\n", "{\"a\": 1}\n[1, 2]\n"}) {
    try {
      read_jsonl(write_temp("corrupt.jsonl", text), "DIR/samples.jsonl");
      ADD_FAILURE() << "accepted " << text;
    } catch (const InputError& error) {
      EXPECT_STREQ(error.what(), "DIR/samples.jsonl:2: not valid JSON (a corrupt record; remove or repair the line)");
    }
  }
}

TEST(JsonlFile, AMissingFileIsEmpty) {
  const auto file = read_jsonl(testing::TempDir() + "/no_such.jsonl", "no_such.jsonl");
  EXPECT_TRUE(file.lines.empty());
  EXPECT_FALSE(file.torn_line);
}

}  // namespace
}  // namespace pkb::results
