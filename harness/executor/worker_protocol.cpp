// JSON for WorkerRequest and WorkerResult (see worker_protocol.h). Every document carries
// schema_version; unknown keys are ignored so an older pkb can read a newer worker's result.
#include "harness/executor/worker_protocol.h"

#include <array>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "src/common/error.h"

namespace pkb::harness {
namespace {

using nlohmann::json;
constexpr int kProtocolVersion = 1;

template <class T>
T field(const json& object, const char* key, const std::string& source, const T& fallback,
        bool required = false) {
  const auto found = object.find(key);
  if (found == object.end()) {
    if (required) throw InputError(source, key, "a value", "nothing");
    return fallback;
  }
  // JSON has no NaN or infinity: nlohmann writes them as null. An error measure is NaN when an
  // output was never written (still poisoned), so null must read back as NaN, not as bad input.
  if constexpr (std::is_floating_point_v<T>)
    if (found->is_null()) return std::numeric_limits<T>::quiet_NaN();
  try {
    return found->get<T>();
  } catch (const json::exception&) {
    throw InputError(source, key, "a value of the right type", found->dump());
  }
}

json stats_json(const TimingStats& stats) {
  return {{"median_us", stats.median_us},
          {"mean_us", stats.mean_us},
          {"p10_us", stats.p10_us},
          {"p90_us", stats.p90_us},
          {"iterations", stats.iterations}};
}

TimingStats parse_stats(const json& object, const std::string& source) {
  TimingStats stats;
  stats.median_us = field(object, "median_us", source, 0.0);
  stats.mean_us = field(object, "mean_us", source, 0.0);
  stats.p10_us = field(object, "p10_us", source, 0.0);
  stats.p90_us = field(object, "p90_us", source, 0.0);
  stats.iterations = field(object, "iterations", source, 0);
  return stats;
}

template <class Enum, std::size_t N>
Enum parse_enum(const std::string& name, const std::array<Enum, N>& values,
                std::string_view (*name_of)(Enum), const std::string& source, const char* key) {
  std::string expected;
  for (Enum value : values) {
    if (name_of(value) == name) return value;
    expected += (expected.empty() ? "" : ", ") + std::string(name_of(value));
  }
  throw InputError(source, key, "one of " + expected, "\"" + name + "\"");
}

constexpr std::array<EmulateMode, 3> kEmulateModes = {EmulateMode::auto_detect, EmulateMode::on,
                                                      EmulateMode::off};
constexpr std::array<WorkerStatus, 6> kStatuses = {
    WorkerStatus::plan_error, WorkerStatus::not_executed, WorkerStatus::runtime_error,
    WorkerStatus::timeout,    WorkerStatus::incorrect,    WorkerStatus::correct};

json drawn_json(const std::vector<DrawnTrial>& trials) {
  json out = json::array();
  for (const DrawnTrial& t : trials)
    out.push_back({{"dims", t.dims}, {"seed", t.seed}, {"num_sms", t.num_sms}});
  return out;
}

json parse_document(const std::string& text, const std::string& source) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& error) {
    throw InputError(source + ": not JSON: " + error.what());
  }
  if (!document.is_object())
    throw InputError(source, "(top level)", "an object", document.type_name());
  return document;
}

}  // namespace

std::string format_seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds);
  return text;
}

std::string_view emulate_mode_name(EmulateMode mode) {
  switch (mode) {
    case EmulateMode::auto_detect: return "auto";
    case EmulateMode::on: return "on";
    case EmulateMode::off: return "off";
  }
  return "auto";
}

std::string_view worker_status_name(WorkerStatus status) {
  switch (status) {
    case WorkerStatus::plan_error: return "plan_error";
    case WorkerStatus::not_executed: return "not_executed";
    case WorkerStatus::runtime_error: return "runtime_error";
    case WorkerStatus::timeout: return "timeout";
    case WorkerStatus::incorrect: return "incorrect";
    case WorkerStatus::correct: return "correct";
  }
  return "runtime_error";
}

std::string request_to_json(const WorkerRequest& r) {
  const json document = {{"schema_version", kProtocolVersion},
                         {"problem", r.problem},
                         {"problems_dir", r.problems_dir},
                         {"world", r.world},
                         {"dtype", dtype_name(r.dtype)},
                         {"dims", r.dims},
                         {"cubin_path", r.cubin_path},
                         {"ptx_path", r.ptx_path},
                         {"plan_path", r.plan_path},
                         {"trial_seeds", r.trial_seeds},
                         {"drawn_trials", drawn_json(r.drawn_trials)},
                         {"num_sms", r.num_sms},
                         {"timing_seed", r.timing_seed},
                         {"timing", r.timing},
                         {"timing_rounds", r.timing_rounds},
                         {"call_timeout_s", r.call_timeout_s},
                         {"emulate", emulate_mode_name(r.emulate)},
                         {"devices", r.devices},
                         {"schedule_seed", r.schedule_seed},
                         {"call_lane_budget", r.call_lane_budget},
                         {"memory_model", r.memory_model},
                         {"progress_path", r.progress_path},
                         {"result_path", r.result_path}};
  return document.dump(2);
}

WorkerRequest parse_request(const std::string& text, const std::string& source) {
  const json d = parse_document(text, source);
  WorkerRequest r;
  r.problem = field<std::string>(d, "problem", source, "", true);
  r.problems_dir = field<std::string>(d, "problems_dir", source, "", true);
  r.world = field(d, "world", source, 0, true);
  const std::string dtype = field<std::string>(d, "dtype", source, "", true);
  const auto parsed = parse_dtype(dtype);
  if (!parsed)
    throw InputError(source, "dtype", "one of " + dtype_names_list(), "\"" + dtype + "\"");
  r.dtype = *parsed;
  r.dims = field(d, "dims", source, r.dims);
  r.cubin_path = field<std::string>(d, "cubin_path", source, "", true);
  r.ptx_path = field<std::string>(d, "ptx_path", source, "", true);
  r.plan_path = field<std::string>(d, "plan_path", source, "", true);
  r.trial_seeds = field(d, "trial_seeds", source, r.trial_seeds);
  for (const json& t : field(d, "drawn_trials", source, json::array())) {
    DrawnTrial drawn;
    drawn.dims = field(t, "dims", source, drawn.dims, true);
    drawn.seed = field(t, "seed", source, 0, true);
    drawn.num_sms = field(t, "num_sms", source, 0);
    r.drawn_trials.push_back(drawn);
  }
  r.num_sms = field(d, "num_sms", source, 0);
  r.timing_seed = field(d, "timing_seed", source, r.timing_seed);
  r.timing = field(d, "timing", source, r.timing);
  r.timing_rounds = field(d, "timing_rounds", source, r.timing_rounds);
  r.call_timeout_s = field(d, "call_timeout_s", source, r.call_timeout_s);
  r.emulate = parse_enum(field<std::string>(d, "emulate", source, "auto"), kEmulateModes,
                         emulate_mode_name, source, "emulate");
  r.devices = field(d, "devices", source, r.devices);
  r.schedule_seed = field(d, "schedule_seed", source, r.schedule_seed);
  r.call_lane_budget = field(d, "call_lane_budget", source, r.call_lane_budget);
  r.memory_model = field<std::string>(d, "memory_model", source, r.memory_model);
  if (r.memory_model != "ptx" && r.memory_model != "sc")
    throw InputError(source, "memory_model", "ptx or sc", "\"" + r.memory_model + "\"");
  r.progress_path = field<std::string>(d, "progress_path", source, "");
  r.result_path = field<std::string>(d, "result_path", source, "", true);
  if (r.world < 1) throw InputError(source, "world", "a positive integer", std::to_string(r.world));
  if (r.call_timeout_s <= 0)
    throw InputError(source, "call_timeout_s", "a positive number",
                     std::to_string(r.call_timeout_s));
  return r;
}

std::string result_to_json(const WorkerResult& r) {
  json trials = json::array();
  for (const TrialSummary& t : r.trials)
    trials.push_back({{"passed", t.passed},
                      {"skewed", t.skewed},
                      {"schedule", t.schedule},
                      {"tensor", t.tensor},
                      {"rank", t.rank},
                      {"max_abs_err", t.max_abs_err},
                      {"max_rel_err", t.max_rel_err},
                      {"error_ratio", t.error_ratio},
                      {"mismatches", t.mismatches},
                      {"first_bad_index", t.first_bad_index},
                      {"summary", t.summary},
                      {"shape", t.shape},
                      {"num_sms", t.num_sms}});
  json document = {{"schema_version", kProtocolVersion},
                   {"status", worker_status_name(r.status)},
                   {"message", r.message},
                   {"stage", r.stage},
                   {"trials", trials},
                   {"library_steps", r.library_steps},
                   {"device",
                    {{"names", r.device.names},
                     {"emulated", r.device.emulated},
                     {"green_contexts", r.device.green_contexts},
                     {"green_note", r.device.green_note},
                     {"sms_per_rank", r.device.sms_per_rank},
                     {"multicast", r.device.multicast},
                     {"arch", r.device.arch},
                     {"simulated", r.device.simulated}}},
                   {"seconds", r.seconds},
                   {"log", r.log}};
  if (r.simulation)
    document["simulation"] = {{"schedule_seed", r.simulation->schedule_seed},
                              {"lane_instructions", r.simulation->lane_instructions},
                              {"calls", r.simulation->calls},
                              {"seconds", r.simulation->seconds},
                              {"memory_model", r.simulation->memory_model},
                              {"warnings", r.simulation->warnings}};
  if (r.timing) {
    const TimingResult& t = *r.timing;
    document["timing"] = {{"candidate", stats_json(t.candidate)},
                          {"baseline", stats_json(t.baseline)},
                          {"speedup", t.speedup},
                          {"round_speedups", t.round_speedups},
                          {"emulated", t.emulated},
                          {"baseline_kind", t.baseline_kind},
                          {"input_sets", t.input_sets},
                          {"distinct_input_sets", t.distinct_input_sets},
                          {"exceeds_l2", t.exceeds_l2},
                          {"recheck_passed", t.recheck_passed}};
  }
  return document.dump(2);
}

WorkerResult parse_result(const std::string& text, const std::string& source) {
  const json d = parse_document(text, source);
  WorkerResult r;
  r.status = parse_enum(field<std::string>(d, "status", source, "", true), kStatuses,
                        worker_status_name, source, "status");
  r.message = field<std::string>(d, "message", source, "");
  r.stage = field<std::string>(d, "stage", source, "");
  for (const json& t : field(d, "trials", source, json::array())) {
    TrialSummary trial;
    trial.passed = field(t, "passed", source, false);
    trial.skewed = field(t, "skewed", source, false);
    trial.schedule = field<std::string>(t, "schedule", source, "");
    trial.tensor = field<std::string>(t, "tensor", source, "");
    trial.rank = field(t, "rank", source, 0);
    trial.max_abs_err = field(t, "max_abs_err", source, 0.0);
    trial.max_rel_err = field(t, "max_rel_err", source, 0.0);
    trial.error_ratio = field(t, "error_ratio", source, 0.0);
    trial.mismatches = field<std::int64_t>(t, "mismatches", source, 0);
    trial.first_bad_index = field(t, "first_bad_index", source, std::vector<std::int64_t>{});
    trial.summary = field<std::string>(t, "summary", source, "");
    trial.shape = field<std::string>(t, "shape", source, "");
    trial.num_sms = field(t, "num_sms", source, 0);
    r.trials.push_back(trial);
  }
  r.library_steps = field(d, "library_steps", source, r.library_steps);
  const json device = field(d, "device", source, json::object());
  r.device.names = field(device, "names", source, r.device.names);
  r.device.emulated = field(device, "emulated", source, false);
  r.device.green_contexts = field(device, "green_contexts", source, false);
  r.device.green_note = field<std::string>(device, "green_note", source, "");
  r.device.sms_per_rank = field(device, "sms_per_rank", source, 0);
  r.device.multicast = field(device, "multicast", source, false);
  r.device.arch = field<std::string>(device, "arch", source, "");
  r.device.simulated = field(device, "simulated", source, false);
  if (d.contains("simulation")) {
    const json& m = d["simulation"];
    SimulationSummary simulation;
    simulation.schedule_seed = field<std::uint64_t>(m, "schedule_seed", source, 0);
    simulation.lane_instructions = field<std::uint64_t>(m, "lane_instructions", source, 0);
    simulation.calls = field(m, "calls", source, 0);
    simulation.seconds = field(m, "seconds", source, 0.0);
    simulation.memory_model = field<std::string>(m, "memory_model", source, "");
    simulation.warnings = field(m, "warnings", source, std::vector<std::string>{});
    r.simulation = simulation;
  }
  r.seconds = field(d, "seconds", source, 0.0);
  r.log = field<std::string>(d, "log", source, "");
  if (d.contains("timing")) {
    const json& t = d["timing"];
    TimingResult timing;
    timing.candidate = parse_stats(field(t, "candidate", source, json::object()), source);
    timing.baseline = parse_stats(field(t, "baseline", source, json::object()), source);
    timing.speedup = field(t, "speedup", source, 0.0);
    timing.round_speedups = field(t, "round_speedups", source, timing.round_speedups);
    timing.emulated = field(t, "emulated", source, false);
    timing.baseline_kind = field<std::string>(t, "baseline_kind", source, "");
    timing.input_sets = field(t, "input_sets", source, 1);
    timing.distinct_input_sets = field(t, "distinct_input_sets", source, 1);
    timing.exceeds_l2 = field(t, "exceeds_l2", source, false);
    timing.recheck_passed = field(t, "recheck_passed", source, false);
    r.timing = timing;
  }
  return r;
}

}  // namespace pkb::harness
