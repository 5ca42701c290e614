// The typed record (src/results/record.h) against what pkb wrote before it existed: the example
// records of docs/RESULTS.md (tests/feedback/data) read and write back unchanged, every results
// directory kept as a fixture still reads, fields a newer pkb adds survive a rewrite, and a field
// of the wrong type is an error that names the line and the field.
#include "src/results/record.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "src/common/error.h"
#include "src/results/samples_file.h"

namespace pkb::results {
namespace {

namespace fs = std::filesystem;
const fs::path kSource = PKB_SOURCE_DIR;

nlohmann::json example(const std::string& status) {
  std::ifstream in(kSource / "tests/feedback/data" / (status + ".json"));
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

std::string error_of(const nlohmann::json& line) {
  try {
    record_from_json(line, "DIR/samples.jsonl:7");
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(Record, EveryExampleRecordWritesBackAsItWasWritten) {
  for (const char* status : {"format_error", "compile_error", "plan_error", "compiled", "correct",
                             "incorrect", "runtime_error", "timeout"}) {
    const nlohmann::json line = example(status);
    const Record record = record_from_json(line, status);
    EXPECT_EQ(record.status, status);
    EXPECT_EQ(to_json(record), line)
        << status << "\nwritten: " << to_json(record).dump() << "\nread:    " << line.dump();
  }
}

TEST(Record, ReadsTheFieldsTheStagesUse) {
  const Record correct = record_from_json(example("correct"), "correct");
  EXPECT_EQ(correct.problem, "002_allgather");
  EXPECT_EQ(correct.world, 8);
  EXPECT_EQ(correct.sample_status(), SampleStatus::correct);
  ASSERT_TRUE(correct.evaluation.has_value());
  EXPECT_EQ(correct.evaluation->category, "collective");
  EXPECT_DOUBLE_EQ(correct.evaluation->speedup.value_or(0), 1.33);
  ASSERT_TRUE(correct.artifacts.has_value());
  EXPECT_EQ(correct.artifacts->cuda, "solutions/002_allgather/sample_0/kernel.cu");
  const auto timing = timing_summary(correct.evaluation->timing);
  ASSERT_TRUE(timing.has_value());
  EXPECT_DOUBLE_EQ(timing->candidate.median_us.value_or(0), 41.3);
  EXPECT_EQ(timing->baseline_kind, "libtorch+nccl");
  EXPECT_FALSE(timing->emulated);

  const Record incorrect = record_from_json(example("incorrect"), "incorrect");
  ASSERT_TRUE(incorrect.evaluation && incorrect.evaluation->eval);
  const auto trials = trial_results(*incorrect.evaluation->eval);
  ASSERT_EQ(trials.size(), 1u);
  EXPECT_FALSE(trials[0].passed);
  EXPECT_EQ(trials[0].tensor, "y");
  EXPECT_EQ(trials[0].first_bad_index, std::vector<std::int64_t>{0});
  EXPECT_FALSE(trials[0].first_bad_is_coordinates);

  const Record compiled = record_from_json(example("compiled"), "compiled");
  EXPECT_FALSE(timing_summary(compiled.evaluation->timing).has_value());  // not timed
  EXPECT_EQ(compiled.output_tokens(), std::nullopt);  // the provider reported none
}

TEST(Record, FieldsItDoesNotNameSurviveARewrite) {
  nlohmann::json line = example("plan_error");
  line["added_by_a_newer_pkb"] = {{"kept", true}};
  line["eval"] = {{"stage", "plan"}, {"trials", nlohmann::json::array()}, {"new", 1}};
  const nlohmann::json written = to_json(record_from_json(line, "plan_error"));
  EXPECT_EQ(written["added_by_a_newer_pkb"], line["added_by_a_newer_pkb"]);
  EXPECT_EQ(written["eval"]["stage"], "plan");
}

TEST(Record, AGenerationRecordHasNoEvaluationFields) {
  const nlohmann::json line = {{"schema_version", 1}, {"problem", "001_allreduce"},
                               {"sample", 0},         {"status", "generated"},
                               {"world", 8},          {"dtype", "bf16"}};
  const Record record = record_from_json(line, "generate.jsonl:1");
  EXPECT_FALSE(record.evaluation.has_value());
  const nlohmann::json written = to_json(record);
  for (const char* field : {"category", "compile", "eval", "timing", "speedup", "conversation"})
    EXPECT_FALSE(written.contains(field)) << field;
}

TEST(Record, AWrongFieldIsAnErrorNamingTheLineAndTheField) {
  nlohmann::json line = example("correct");
  line["usage"] = 5;
  EXPECT_EQ(error_of(line), "DIR/samples.jsonl:7: usage: expected an object or null, got 5");
  line = example("correct");
  line["usage"]["output_tokens"] = "many";
  EXPECT_EQ(error_of(line),
            "DIR/samples.jsonl:7: usage: output_tokens: expected an integer or null, got \"many\"");
  line = example("correct");
  line["speedup"] = -1.0;
  EXPECT_EQ(error_of(line),
            "DIR/samples.jsonl:7: speedup: expected a positive number or null, got -1.0");
  line = example("correct");
  line["status"] = "exploded";
  EXPECT_NE(error_of(line).find("DIR/samples.jsonl:7: status: expected one of api_error"),
            std::string::npos)
      << error_of(line);
  line = example("correct");
  line.erase("sample");
  EXPECT_EQ(error_of(line), "DIR/samples.jsonl:7: sample: expected an integer >= 0, got nothing");
  line = example("correct");
  line["schema_version"] = 3;
  EXPECT_EQ(error_of(line),
            "DIR/samples.jsonl:7: schema_version 3 is newer than this pkb understands (max 2)");
  line = example("correct");
  line["warnings"] = {"a", 2};
  EXPECT_EQ(error_of(line).rfind("DIR/samples.jsonl:7: warnings: expected a list of strings", 0),
            0u)
      << error_of(line);
}

TEST(Record, EveryResultsDirectoryKeptAsAFixtureStillReads) {
  int files = 0, records = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kSource / "tests/score/data")) {
    if (entry.path().filename() != "samples.jsonl") continue;
    const RecordsFile file = read_records(entry.path(), entry.path().string());
    EXPECT_FALSE(file.lines.empty()) << entry.path();
    for (const auto& line : file.lines) {
      // A rewrite keeps every field the line had.
      const nlohmann::json written = to_json(line.record);
      const nlohmann::json read = nlohmann::json::parse(line.text);
      for (const auto& [key, value] : read.items()) {
        if (value.is_null()) continue;  // null reads as absent
        EXPECT_TRUE(written.contains(key)) << entry.path() << ": " << key;
      }
    }
    ++files;
    records += static_cast<int>(file.lines.size());
  }
  EXPECT_GE(files, 8);
  EXPECT_GE(records, 40);
}

TEST(Record, FirstBadIndexIsAFlatIndexOrCoordinates) {
  EvalInfo eval;
  eval.trials = nlohmann::json::array(
      {{{"passed", false}, {"first_bad_index", nlohmann::json::array({2, 5})}},
       {{"passed", true}, {"first_bad_index", -1}},
       {{"passed", false}, {"first_bad_index", nlohmann::json::array({7})}}});
  const auto trials = trial_results(eval);
  ASSERT_EQ(trials.size(), 3u);
  EXPECT_EQ(trials[0].first_bad_index, (std::vector<std::int64_t>{2, 5}));
  EXPECT_TRUE(trials[0].first_bad_is_coordinates);
  EXPECT_TRUE(trials[1].first_bad_index.empty());
  EXPECT_TRUE(trials[2].first_bad_is_coordinates);
}

}  // namespace
}  // namespace pkb::results
