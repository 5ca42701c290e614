// run.json typed once (src/results/run_info.h): the fields score, merge and slurm status read, the
// errors for a malformed list, and the one rule for runs whose settings differ.
#include "src/results/run_info.h"

#include <gtest/gtest.h>

#include "src/common/error.h"

namespace pkb::results {
namespace {

using nlohmann::json;

std::string error_of(const json& doc) {
  try {
    run_info_from(doc, "D/run.json");
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(RunInfo, TypesTheFieldsItsReadersUse) {
  const RunInfo info = run_info_from(
      json::parse(R"({"schema_version": 2, "kind": "run", "hardware_key": "h200x8",
        "fingerprint": {"model": "m", "samples": 4},
        "problems": [{"key": "001_allreduce", "category": "collective"}, {"key": "002_allgather"}],
        "shard": {"index": 1, "count": 3}, "finished": "2026-12-02T05:00:00Z",
        "summary": {"cancelled": true}, "command": "pkb run"})"),
      "D/run.json");
  EXPECT_EQ(info.schema_version, 2);
  EXPECT_EQ(info.kind, "run");
  EXPECT_EQ(info.hardware_key, "h200x8");
  ASSERT_EQ(info.problems.size(), 2u);
  EXPECT_EQ(info.problems[0].category, "collective");
  EXPECT_EQ(info.problems[1].key, "002_allgather");
  EXPECT_EQ(info.problems[1].category, "");
  EXPECT_EQ(info.samples_per_problem, 4);
  EXPECT_EQ(info.shard_label(), "1/3");
  EXPECT_TRUE(info.finished);
  EXPECT_TRUE(info.cancelled);
  EXPECT_EQ(info.doc.at("command"), "pkb run");  // what is only copied on stays in the document
}

TEST(RunInfo, ReadsSchemaOneAndRunsWithoutShardsOrEnd) {
  const RunInfo info = run_info_from(
      json::parse(R"({"schema_version": 1, "kind": "generate", "samples_per_problem": 5, "problems": []})"),
      "D/run.json");
  EXPECT_EQ(info.samples_per_problem, 5);
  EXPECT_EQ(info.shard_label(), "");
  EXPECT_FALSE(info.finished);
  EXPECT_EQ(info.hardware_key, "");
  EXPECT_TRUE(info.fingerprint.is_object());
}

TEST(RunInfo, RefusesAMalformedListNamingTheField) {
  EXPECT_EQ(error_of(json::parse(R"({"problems": {"key": "x"}})")),
            "D/run.json: problems: expected an array, got {\"key\":\"x\"}");
  EXPECT_EQ(error_of(json::parse(R"({"problems": [{"id": 1}]})")),
            "D/run.json: problems[]: expected objects with a string key, got {\"id\":1}");
  EXPECT_EQ(error_of(json::parse(R"({"shard": "1/3"})")),
            "D/run.json: shard: expected an object, got \"1/3\"");
}

TEST(RunInfo, FirstDifferenceNamesAFingerprintFieldThenTheHardware) {
  auto info = [](const char* text) { return run_info_from(json::parse(text), "D/run.json"); };
  const RunInfo a = info(R"({"hardware_key": "h100x8", "fingerprint": {"model": "m", "temperature": 0.2}})");
  EXPECT_FALSE(first_difference(a, a));
  const auto temperature =
      first_difference(a, info(R"({"hardware_key": "h200x8", "fingerprint": {"model": "m", "temperature": 1.0}})"));
  ASSERT_TRUE(temperature);
  EXPECT_EQ(temperature->field, "fingerprint.temperature");  // before the hardware, which differs too
  EXPECT_EQ(temperature->first, "0.2");
  EXPECT_EQ(temperature->other, "1.0");
  const auto absent = first_difference(a, info(R"({"hardware_key": "h100x8", "fingerprint": {"model": "m"}})"));
  ASSERT_TRUE(absent);
  EXPECT_EQ(absent->other, "absent");
  const auto hardware =
      first_difference(a, info(R"({"hardware_key": "h200x8", "fingerprint": {"model": "m", "temperature": 0.2}})"));
  ASSERT_TRUE(hardware);
  EXPECT_EQ(hardware->field, "hardware_key");
  EXPECT_EQ(hardware->other, "\"h200x8\"");
}

}  // namespace
}  // namespace pkb::results
