// Reading results directories: bad input is an error naming file and line, except a torn last
// line, which is skipped and reported.
#include "src/results/results_dir.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "tests/score/fixture.h"

namespace pkb::results {
namespace {
namespace fs = std::filesystem;
using test::copy_fixture;
using test::read_text;
using test::write_text;

std::string load_error(const fs::path& dir) {
  try {
    load_results_dir(dir);
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

// Replaces line `line_no` (1-based) of samples.jsonl.
void replace_line(const fs::path& dir, int line_no, const std::string& text) {
  const std::string old = read_text(dir / "samples.jsonl");
  std::string out;
  std::size_t start = 0;
  for (int line = 1; start < old.size(); ++line) {
    const std::size_t end = old.find('\n', start);
    out += (line == line_no ? text : old.substr(start, end - start)) + "\n";
    start = end + 1;
  }
  write_text(dir / "samples.jsonl", out);
}

TEST(ResultsDir, ReadsEveryRecordWithItsCategory) {
  const ResultsDir dir = load_results_dir(test::fixture_dir("basic"));
  ASSERT_EQ(dir.samples.size(), 10u);
  EXPECT_EQ(dir.run.problems.size(), 5u);
  EXPECT_EQ(dir.samples[6].problem, "p_some");
  EXPECT_EQ(dir.samples[6].category, "fused");
  EXPECT_TRUE(dir.samples[6].emulated);
  EXPECT_EQ(dir.samples[6].line, 7);
  EXPECT_DOUBLE_EQ(*dir.samples[0].speedup, 2.0);
  EXPECT_TRUE(dir.skipped.empty());
}

TEST(ResultsDir, RefusesACorruptLineNamingFileAndLine) {
  const fs::path dir = copy_fixture("basic");
  replace_line(dir, 4, "{\"schema_version\": 2, \"problem\": \"p_none\", \"sampl");
  EXPECT_EQ(load_error(dir), dir.string() +
                                 "/samples.jsonl:4: not valid JSON (a corrupt record; remove or repair the line)");
}

TEST(ResultsDir, RefusesABadFieldNamingTheLine) {
  const fs::path dir = copy_fixture("basic");
  replace_line(dir, 2, R"({"schema_version": 2, "problem": "p_all", "sample": 1, "status": "passed"})");
  EXPECT_EQ(load_error(dir),
            dir.string() + "/samples.jsonl:2: status: expected one of api_error, format_error, "
                           "compile_error, plan_error, runtime_error, timeout, incorrect, correct, "
                           "compiled, generated, got \"passed\"");
  replace_line(dir, 2, R"({"schema_version": 2, "problem": "p_all", "sample": -1, "status": "correct"})");
  EXPECT_EQ(load_error(dir), dir.string() + "/samples.jsonl:2: sample: expected an integer >= 0, got -1");
}

TEST(ResultsDir, SkipsAndReportsATornLastLine) {
  const fs::path dir = copy_fixture("basic");
  write_text(dir / "samples.jsonl", read_text(dir / "samples.jsonl") + "{\"schema_version\": 2, \"prob");
  const ResultsDir loaded = load_results_dir(dir);
  EXPECT_EQ(loaded.samples.size(), 10u);
  ASSERT_EQ(loaded.skipped.size(), 1u);
  EXPECT_EQ(loaded.skipped[0].where, dir.string() + "/samples.jsonl:11");
}

TEST(ResultsDir, RefusesANewerSchemaNamingTheFile) {
  const fs::path dir = copy_fixture("basic");
  std::string run = read_text(dir / "run.json");
  run.replace(run.find("\"schema_version\": 2"), 19, "\"schema_version\": 3");
  write_text(dir / "run.json", run);
  EXPECT_EQ(load_error(dir),
            dir.string() + "/run.json: schema_version 3 is newer than this pkb understands (max 2)");
  const fs::path other = copy_fixture("basic");
  replace_line(other, 5, R"({"schema_version": 7, "problem": "p_none", "sample": 1, "status": "correct"})");
  EXPECT_EQ(load_error(other), other.string() +
                                   "/samples.jsonl:5: schema_version 7 is newer than this pkb understands (max 2)");
}

TEST(ResultsDir, RefusesADuplicateSample) {
  const fs::path dir = copy_fixture("basic");
  replace_line(dir, 3, R"({"schema_version": 2, "problem": "p_all", "sample": 0, "turn": 0, "status": "incorrect"})");
  EXPECT_EQ(load_error(dir), dir.string() +
                                 "/samples.jsonl:3: duplicate record for p_all sample 0 turn 0 (first at line 1)");
}

TEST(ResultsDir, RefusesAMissingFile) {
  const fs::path dir = copy_fixture("basic");
  fs::remove(dir / "samples.jsonl");
  EXPECT_EQ(load_error(dir), dir.string() +
                                 "/samples.jsonl: cannot be read (missing, or not a results directory?)");
}

TEST(ResultsDir, FindsResultsDirsWithoutDescendingIntoThem) {
  const auto found = find_results_dirs(test::fixture_dir("tree"));
  ASSERT_EQ(found.size(), 5u);
  EXPECT_EQ(found[0].filename(), "model-a");  // h100/model-a sorts first
  EXPECT_EQ(found[0].parent_path().filename(), "h100");
}

}  // namespace
}  // namespace pkb::results
