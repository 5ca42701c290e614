// The record helpers: an evaluated record carries every schema-2 field, and generation_record()
// gives back what `pkb generate` wrote, so `pkb evaluate` can start over from any record.
#include "src/run/sample_record.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace pkb::run {
namespace {

results::Record generation() {
  results::Record record;
  record.problem = "001_allreduce";
  record.sample = 2;
  record.status = "generated";
  record.message = "";
  record.artifacts = results::Artifacts{};
  record.artifacts->answer = "solutions/001_allreduce/sample_2/answer.md";
  return record;
}

TEST(SampleRecord, EvaluatedCarriesEverySchemaTwoField) {
  const auto out =
      std::filesystem::temp_directory_path() / ("pkb_record_" + std::to_string(::getpid()));
  eval::EvalOutcome outcome;
  outcome.status = results::SampleStatus::compiled;
  outcome.message = "compiled for sm_90a";
  outcome.compile.ok = true;
  outcome.compile.key = "abc";
  outcome.compile.seconds = 1.5;
  outcome.compile.log = std::string(5000, 'x');
  outcome.plan_steps = 1;
  const auto record = results::to_json(
      evaluated_record(generation(), "collective", outcome, "sm_90a", "no GPU is visible", out));
  EXPECT_EQ(record["schema_version"], 2);
  EXPECT_EQ(record["status"], "compiled");
  EXPECT_EQ(record["category"], "collective");
  EXPECT_EQ(record["compile"]["arch"], "sm_90a");
  EXPECT_LT(record["compile"]["log"].get<std::string>().size(), 4200u);  // trimmed to 4 KiB
  EXPECT_EQ(record["eval"]["no_gpu_reason"], "no GPU is visible");
  EXPECT_TRUE(record["timing"].is_null());
  EXPECT_TRUE(record["speedup"].is_null());
  EXPECT_EQ(record["suspicious_fast"], false);
  for (const char* field : {"sol_ms", "sol_fraction", "warnings", "library_steps", "plan_steps"})
    EXPECT_TRUE(record.contains(field)) << field;
  EXPECT_EQ(record["artifacts"]["log"], "logs/001_allreduce/sample_2.txt");
  EXPECT_TRUE(std::filesystem::exists(out / "logs/001_allreduce/sample_2.txt"));
  std::filesystem::remove_all(out);

  const auto back = results::to_json(
      generation_record(results::record_from_json(record, "evaluated record")));
  EXPECT_EQ(back["status"], "generated");
  EXPECT_EQ(back["schema_version"], 1);
  EXPECT_FALSE(back.contains("category"));
  EXPECT_FALSE(back.contains("compile"));
  EXPECT_FALSE(back["artifacts"].contains("log"));
}

TEST(SampleRecord, CorrectSampleTakesItsSpeedupFromTheTiming) {
  eval::EvalOutcome outcome;
  outcome.status = results::SampleStatus::correct;
  outcome.run = {{"stage", "done"},
                 {"seconds", 2.0},
                 {"trials", nlohmann::json::array()},
                 {"device", {{"emulated", false}}},
                 {"timing", {{"speedup", 1.25}, {"emulated", false}}}};
  const auto out = std::filesystem::temp_directory_path();
  auto record =
      results::to_json(evaluated_record(generation(), "collective", outcome, "sm_90a", "", out));
  EXPECT_EQ(record["speedup"], 1.25);
  EXPECT_EQ(record["timing"]["speedup"], 1.25);
  EXPECT_EQ(record["eval"]["stage"], "done");
  outcome.status = results::SampleStatus::incorrect;
  record =
      results::to_json(evaluated_record(generation(), "collective", outcome, "sm_90a", "", out));
  EXPECT_TRUE(record["speedup"].is_null());
}

TEST(SampleRecord, FailuresBeforeTheCompilerKeepTheirStatus) {
  auto gen = generation();
  gen.status = "format_error";
  gen.message = "no ```json block";
  const auto record = unevaluated_record(gen, "collective");
  const auto written = results::to_json(record);
  EXPECT_EQ(written["status"], "format_error");
  EXPECT_TRUE(written.contains("compile") && written["compile"].is_null());
  EXPECT_TRUE(written.contains("eval") && written["eval"].is_null());
  EXPECT_EQ(generation_record(record).status, "format_error");
  EXPECT_EQ(generation_record(record).message, "no ```json block");
  EXPECT_FALSE(results::to_json(generation_record(record)).contains("compile"));
}

}  // namespace
}  // namespace pkb::run
