#include "harness/executor/worker_protocol.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "src/common/error.h"

namespace pkb::harness {
namespace {

WorkerRequest sample_request() {
  WorkerRequest request;
  request.problem = "001_allreduce";
  request.problems_dir = "problems";
  request.world = 4;
  request.dtype = DType::fp16;
  request.dims = {{"M", 64}, {"N", 128}};
  request.cubin_path = "a.cubin";
  request.ptx_path = "a.ptx";
  request.plan_path = "plan.json";
  request.trial_seeds = {917, 4402, 8};
  request.drawn_trials = {{{{"M", 3}, {"N", 5}}, 77, 2}};
  request.num_sms = 4;
  request.timing_seed = 123456;
  request.timing = false;
  request.timing_rounds = 5;
  request.call_timeout_s = 2.5;
  request.emulate = EmulateMode::on;
  request.devices = {3};
  request.progress_path = "progress.txt";
  request.result_path = "result.json";
  return request;
}

TEST(WorkerProtocol, RequestRoundTrips) {
  const WorkerRequest in = sample_request();
  const WorkerRequest out = parse_request(request_to_json(in), "request.json");
  EXPECT_EQ(out.problem, in.problem);
  EXPECT_EQ(out.problems_dir, in.problems_dir);
  EXPECT_EQ(out.world, 4);
  EXPECT_EQ(out.dtype, DType::fp16);
  EXPECT_EQ(out.dims, in.dims);
  EXPECT_EQ(out.cubin_path, in.cubin_path);
  EXPECT_EQ(out.ptx_path, in.ptx_path);
  EXPECT_EQ(out.plan_path, in.plan_path);
  EXPECT_EQ(out.trial_seeds, in.trial_seeds);
  ASSERT_EQ(out.drawn_trials.size(), 1u);
  EXPECT_EQ(out.drawn_trials[0].dims, in.drawn_trials[0].dims);
  EXPECT_EQ(out.drawn_trials[0].seed, 77);
  EXPECT_EQ(out.drawn_trials[0].num_sms, 2);
  EXPECT_EQ(out.num_sms, 4);
  EXPECT_EQ(out.timing_seed, 123456);
  EXPECT_FALSE(out.timing);
  EXPECT_EQ(out.timing_rounds, 5);
  EXPECT_DOUBLE_EQ(out.call_timeout_s, 2.5);
  EXPECT_EQ(out.emulate, EmulateMode::on);
  EXPECT_EQ(out.devices, std::vector<int>{3});
  EXPECT_EQ(out.progress_path, in.progress_path);
  EXPECT_EQ(out.result_path, in.result_path);
}

TEST(WorkerProtocol, EmulateIsWrittenAsAuto) {
  WorkerRequest request = sample_request();
  request.emulate = EmulateMode::auto_detect;
  EXPECT_NE(request_to_json(request).find("\"emulate\": \"auto\""), std::string::npos);
}

TEST(WorkerProtocol, RequestErrorsNameTheField) {
  try {
    parse_request(R"({"problem": "001_allreduce"})", "req.json");
    FAIL() << "expected an error";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "req.json: problems_dir: expected a value, got nothing");
  }
  std::string text = request_to_json(sample_request());
  text.replace(text.find("\"fp16\""), 6, "\"fp17\"");
  EXPECT_THROW(parse_request(text, "req.json"), InputError);
  EXPECT_THROW(parse_request("[1, 2]", "req.json"), InputError);
  EXPECT_THROW(parse_request("{", "req.json"), InputError);
}

TEST(WorkerProtocol, ResultRoundTrips) {
  WorkerResult in;
  in.status = WorkerStatus::incorrect;
  in.message = "trial 2: rank 1 y: 3/32 mismatches";
  in.stage = "trial 2: check";
  TrialSummary trial;
  trial.passed = false;
  trial.skewed = true;
  trial.tensor = "y";
  trial.rank = 1;
  trial.max_abs_err = 2.5;
  trial.max_rel_err = 0.25;
  trial.error_ratio = 40;
  trial.mismatches = 3;
  trial.first_bad_index = {0, 7};
  trial.summary = "rank 1 y: 3/32 mismatches";
  in.trials = {trial};
  TimingResult timing;
  timing.candidate = {10, 11, 9, 13, 60};
  timing.baseline = {20, 21, 19, 24, 60};
  timing.speedup = 2.0;
  timing.round_speedups = {1.9, 2.0, 2.1};
  timing.emulated = true;
  timing.baseline_kind = "simulated";
  timing.input_sets = 16;
  timing.distinct_input_sets = 8;
  timing.exceeds_l2 = true;
  timing.recheck_passed = true;
  in.timing = timing;
  in.library_steps = {"collective:all_reduce", "gemm"};
  in.device = {{"NVIDIA H200", "NVIDIA H200"}, true, true, "", 64, false, "sm_90"};
  in.seconds = 3.25;
  in.log = "warning: something";

  const WorkerResult out = parse_result(result_to_json(in), "result.json");
  EXPECT_EQ(out.status, WorkerStatus::incorrect);
  EXPECT_EQ(out.message, in.message);
  EXPECT_EQ(out.stage, in.stage);
  ASSERT_EQ(out.trials.size(), 1u);
  EXPECT_FALSE(out.trials[0].passed);
  EXPECT_TRUE(out.trials[0].skewed);
  EXPECT_EQ(out.trials[0].tensor, "y");
  EXPECT_EQ(out.trials[0].rank, 1);
  EXPECT_DOUBLE_EQ(out.trials[0].error_ratio, 40);
  EXPECT_EQ(out.trials[0].mismatches, 3);
  EXPECT_EQ(out.trials[0].first_bad_index, (std::vector<std::int64_t>{0, 7}));
  ASSERT_TRUE(out.timing.has_value());
  EXPECT_DOUBLE_EQ(out.timing->candidate.median_us, 10);
  EXPECT_DOUBLE_EQ(out.timing->baseline.p90_us, 24);
  EXPECT_EQ(out.timing->baseline.iterations, 60);
  EXPECT_DOUBLE_EQ(out.timing->speedup, 2.0);
  EXPECT_EQ(out.timing->round_speedups.size(), 3u);
  EXPECT_TRUE(out.timing->emulated);
  EXPECT_EQ(out.timing->baseline_kind, "simulated");
  EXPECT_EQ(out.timing->input_sets, 16);
  EXPECT_EQ(out.timing->distinct_input_sets, 8);
  EXPECT_TRUE(out.timing->recheck_passed);
  EXPECT_EQ(out.library_steps, in.library_steps);
  EXPECT_EQ(out.device.names.size(), 2u);
  EXPECT_TRUE(out.device.green_contexts);
  EXPECT_EQ(out.device.sms_per_rank, 64);
  EXPECT_EQ(out.device.arch, "sm_90");
  EXPECT_DOUBLE_EQ(out.seconds, 3.25);
  EXPECT_EQ(out.log, in.log);
}

TEST(WorkerProtocol, ResultWithoutTimingHasNone) {
  WorkerResult in;
  in.status = WorkerStatus::timeout;
  const WorkerResult out = parse_result(result_to_json(in), "result.json");
  EXPECT_EQ(out.status, WorkerStatus::timeout);
  EXPECT_FALSE(out.timing.has_value());
}

TEST(WorkerProtocol, UnknownStatusIsAnError) {
  try {
    parse_result(R"({"status": "fine"})", "result.json");
    FAIL() << "expected an error";
  } catch (const InputError& error) {
    EXPECT_STREQ(
        error.what(),
        "result.json: status: expected one of plan_error, not_executed, runtime_error, timeout, incorrect, "
        "correct, got \"fine\"");
  }
}

// An output left poisoned measures as NaN, which JSON writes as null: the result must still read
// back, as an incorrect trial with NaN errors (a GPU run once reported such a sample as a crashed
// worker).
TEST(WorkerProtocol, NonFiniteErrorsRoundTripAsNaN) {
  WorkerResult in;
  in.status = WorkerStatus::incorrect;
  TrialSummary trial;
  trial.tensor = "y";
  trial.max_abs_err = std::numeric_limits<double>::quiet_NaN();
  trial.max_rel_err = std::numeric_limits<double>::infinity();
  trial.error_ratio = std::numeric_limits<double>::quiet_NaN();
  in.trials.push_back(trial);
  const std::string text = result_to_json(in);
  EXPECT_NE(text.find("\"max_abs_err\": null"), std::string::npos) << text;
  const WorkerResult out = parse_result(text, "result.json");
  ASSERT_EQ(out.trials.size(), 1u);
  EXPECT_EQ(out.status, WorkerStatus::incorrect);
  EXPECT_TRUE(std::isnan(out.trials[0].max_abs_err));
  EXPECT_TRUE(std::isnan(out.trials[0].max_rel_err));
  EXPECT_TRUE(std::isnan(out.trials[0].error_ratio));
}

}  // namespace
}  // namespace pkb::harness
