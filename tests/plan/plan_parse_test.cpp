// Plans that are malformed as written: JSON, fields, ops, streams, events, argument syntax.
#include "tests/plan/plan_fixture.h"

namespace pkb::plan {
namespace {

TEST_F(PlanTest, InvalidJsonIsAPlanError) {
  EXPECT_NE(error_of("{\"steps\": [").find("plan: not valid JSON"), std::string::npos);
}

TEST_F(PlanTest, UnknownTopLevelFieldSuggestsTheKnownOne) {
  EXPECT_EQ(error_of(R"J({"stepz": []})J"),
            "plan: stepz: expected a known field (did you mean 'steps'?), got unknown field 'stepz'");
}

TEST_F(PlanTest, UnknownStepFieldAndOpAreNamed) {
  EXPECT_NE(error_of("{\"steps\": [" + allreduce_step("\"blocks\": 3") + "]}").find("plan: steps[0].blocks: expected a known field (did you mean 'block'?)"),
            std::string::npos);
  EXPECT_EQ(error_of(R"J({"steps": [{"op": "launch"}]})J"),
            "plan: steps[0].op: expected one of kernel, memset, copy, gemm, collective, barrier, got \"launch\"");
}

TEST_F(PlanTest, StreamOutOfRange) {
  EXPECT_EQ(error_of("{\"steps\": [" + allreduce_step("\"stream\": 8") + "]}"),
            "plan: steps[0].stream: expected a stream number 0..7, got 8");
}

TEST_F(PlanTest, WaitForAnEventNobodyRecords) {
  EXPECT_EQ(error_of("{\"steps\": [" + allreduce_step("\"wait\": [\"ready\"]") + "]}"),
            "plan: steps[0].wait[0]: event 'ready' is never recorded (recorded events: none)");
}

TEST_F(PlanTest, AnEventRecordedTwice) {
  const std::string plan = "{\"steps\": [" + allreduce_step("\"record\": \"e\"") + ", " +
                           allreduce_step("\"record\": \"e\"") + "]}";
  EXPECT_EQ(error_of(plan), "plan: steps[1].record: event 'e' is already recorded by steps[0] (record each event once)");
}

TEST_F(PlanTest, ACycleOfWaitsIsNamedStepByStep) {
  const std::string plan = "{\"steps\": [" + allreduce_step("\"stream\": 0, \"wait\": [\"b\"], \"record\": \"a\"") +
                           ", " + allreduce_step("\"stream\": 1, \"wait\": [\"a\"], \"record\": \"b\"") + "]}";
  const std::string message = error_of(plan);
  EXPECT_NE(message.find("the event waits form a cycle"), std::string::npos) << message;
  EXPECT_NE(message.find("steps[0] waits for 'b' (recorded by steps[1])"), std::string::npos) << message;
  EXPECT_NE(message.find("steps[1] waits for 'a' (recorded by steps[0])"), std::string::npos) << message;
}

TEST_F(PlanTest, AWaitOnALaterStepIssuesThatStepFirst) {
  // steps[0] on stream 1 waits for the memset that steps[1] records on stream 0.
  const std::string plan = R"J({"buffers": [{"name": "acc", "kind": "local", "dtype": "fp32", "shape": ["M", "N"]}],
    "steps": [)J" + allreduce_step("\"stream\": 1, \"wait\": [\"zeroed\"]") +
                           R"J(, {"op": "memset", "buffer": "acc", "value": 0, "record": "zeroed"}]})J";
  const auto plans = resolve(plan);
  ASSERT_EQ(plans[0].steps.size(), 2u);
  EXPECT_EQ(plans[0].steps[0].op, StepOp::memset);
  EXPECT_EQ(plans[0].steps[0].record, 0);
  EXPECT_EQ(plans[0].steps[1].waits, std::vector<int>{0});
  EXPECT_EQ(plans[0].streams_used, (std::vector<int>{0, 1}));
}

TEST_F(PlanTest, ArgumentSyntax) {
  EXPECT_NE(error_of(R"J({"steps": [{"op": "kernel", "kernel": "scale", "grid": 1, "block": 1,
                                    "args": ["y", "float(2)"]}]})J")
                .find("steps[0].args[1]: unknown argument form 'float(...)'"),
            std::string::npos);
  EXPECT_NE(error_of(R"J({"steps": [{"op": "kernel", "kernel": "scale", "grid": 1, "block": 1,
                                    "args": ["y", 2]}]})J")
                .find("steps[0].args[1]: expected an argument string"),
            std::string::npos);
  EXPECT_NE(error_of(R"J({"steps": [{"op": "kernel", "kernel": "scale", "grid": 1, "block": 1,
                                    "args": ["y", "i32(M +)"]}]})J")
                .find("plan: steps[0].args[1]: "),
            std::string::npos);
}

TEST_F(PlanTest, UnknownVariableInAnExpressionListsTheNames) {
  const std::string message = error_of("{\"steps\": [" + allreduce_step("\"shared_bytes\": \"Q * 4\"") + "]}");
  EXPECT_NE(message.find("steps[0].shared_bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("Q"), std::string::npos) << message;
  EXPECT_NE(message.find("W, rank and num_sms"), std::string::npos) << message;
}

}  // namespace
}  // namespace pkb::plan
