// Reading a record strictly: a field of the wrong type is an error naming the line and field,
// never a silent default, because a score built on misread records would look valid. Null reads
// as absent (docs/RESULTS.md: unknown values are null).
#include "src/results/record.h"

#include <algorithm>
#include <set>

#include "src/common/error.h"
#include "src/results/schema.h"

namespace pkb::results {
namespace {

using Json = nlohmann::json;

std::string shown(const Json& value) {
  return value.is_null() ? "null" : value.dump().substr(0, 40);
}

// Reads the fields of one JSON object for a record, naming the field in every error.
class Fields {
 public:
  Fields(const Json& object, std::string where) : object_(object), where_(std::move(where)) {}

  const Json* find(const char* name) const {
    const auto it = object_.find(name);
    return it == object_.end() || it->is_null() ? nullptr : &*it;
  }

  [[noreturn]] void bad(const char* name, const std::string& expected, const Json* value) const {
    throw InputError(where_, name, expected, value ? shown(*value) : "nothing");
  }

  std::optional<std::string> text(const char* name) const {
    const Json* value = find(name);
    if (!value) return std::nullopt;
    if (!value->is_string()) bad(name, "a string or null", value);
    return value->get<std::string>();
  }
  std::string required_text(const char* name) const {
    const auto value = text(name);
    if (!value || value->empty()) bad(name, "a non-empty string", find(name));
    return *value;
  }
  std::optional<double> number(const char* name) const {
    const Json* value = find(name);
    if (!value) return std::nullopt;
    if (!value->is_number()) bad(name, "a number or null", value);
    return value->get<double>();
  }
  std::optional<std::int64_t> integer(const char* name) const {
    const Json* value = find(name);
    if (!value) return std::nullopt;
    if (!value->is_number_integer()) bad(name, "an integer or null", value);
    return value->get<std::int64_t>();
  }
  std::optional<int> small_integer(const char* name) const {
    const auto value = integer(name);
    if (value && (*value < -1000000000LL || *value > 1000000000LL))
      bad(name, "an integer of at most 10 digits", find(name));
    return value ? std::optional<int>(static_cast<int>(*value)) : std::nullopt;
  }
  int index(const char* name, bool required) const {
    const Json* value = find(name);
    if (!value && !required) return 0;
    if (!value || !value->is_number_integer() || value->get<std::int64_t>() < 0 ||
        value->get<std::int64_t>() > 1000000)
      bad(name, "an integer >= 0", value);
    return value->get<int>();
  }
  std::optional<bool> flag(const char* name) const {
    const Json* value = find(name);
    if (!value) return std::nullopt;
    if (!value->is_boolean()) bad(name, "true or false", value);
    return value->get<bool>();
  }
  const Json* object(const char* name) const {
    const Json* value = find(name);
    if (value && !value->is_object()) bad(name, "an object or null", value);
    return value;
  }
  std::vector<std::string> texts(const char* name) const {
    const Json* value = find(name);
    std::vector<std::string> out;
    if (!value) return out;
    if (!value->is_array()) bad(name, "a list of strings", value);
    for (const auto& item : *value) {
      if (!item.is_string()) bad(name, "a list of strings", value);
      out.push_back(item.get<std::string>());
    }
    return out;
  }
  // The object at `name`, read the same way; nothing when it is absent or null.
  std::optional<Fields> in(const char* name) const {
    const Json* value = object(name);
    return value ? std::optional<Fields>(Fields(*value, where_ + ": " + name)) : std::nullopt;
  }

 private:
  const Json& object_;
  std::string where_;
};

Json optional_json(const std::optional<std::string>& value) {
  return value ? Json(*value) : Json();
}
Json optional_json(const std::optional<double>& value) { return value ? Json(*value) : Json(); }
Json optional_json(const std::optional<std::int64_t>& value) {
  return value ? Json(*value) : Json();
}

// Lenient reads of the worker's objects: what is missing or of another type reads as empty.
std::optional<double> number_in(const Json& object, const char* name) {
  const auto it = object.find(name);
  return it != object.end() && it->is_number() ? std::optional<double>(it->get<double>())
                                               : std::nullopt;
}
bool flag_in(const Json& object, const char* name) {
  const auto it = object.find(name);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}
std::string text_in(const Json& object, const char* name) {
  const auto it = object.find(name);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

// Every key this type names; anything else goes to Record::other.
const std::set<std::string>& named_keys() {
  static const std::set<std::string> keys = {"schema_version",
                                             "problem",
                                             "problem_id",
                                             "sample",
                                             "turn",
                                             "world",
                                             "dtype",
                                             "prompt_sha256",
                                             "conversation_sha256",
                                             "cache_key",
                                             "status",
                                             "message",
                                             "attempts",
                                             "latency_s",
                                             "request_id",
                                             "request_adjustments",
                                             "timeouts_after_accept",
                                             "failure_kind",
                                             "http_status",
                                             "model",
                                             "response_id",
                                             "stop_reason",
                                             "raw_stop_reason",
                                             "usage",
                                             "from_cache",
                                             "cuda_blocks",
                                             "json_blocks",
                                             "format_reason",
                                             "cuda_alias_used",
                                             "artifacts",
                                             "time",
                                             "category",
                                             "compile",
                                             "plan_steps",
                                             "library_steps",
                                             "warnings",
                                             "eval",
                                             "timing",
                                             "speedup",
                                             "sol_ms",
                                             "sol_fraction",
                                             "suspicious_fast",
                                             "sol",
                                             "conversation",
                                             "feedback"};
  return keys;
}

TokenUsage read_usage(const Fields& usage) {
  return {usage.integer("input_tokens"), usage.integer("cached_input_tokens"),
          usage.integer("output_tokens"), usage.integer("reasoning_tokens")};
}

Artifacts read_artifacts(const Fields& artifacts) {
  return {artifacts.text("response").value_or(""), artifacts.text("answer").value_or(""),
          artifacts.text("cuda").value_or(""), artifacts.text("plan").value_or(""),
          artifacts.text("log").value_or("")};
}

Evaluation read_evaluation(const Fields& fields) {
  Evaluation evaluation;
  evaluation.category = fields.text("category").value_or("");
  if (const auto compile = fields.in("compile"))
    evaluation.compile =
        CompileInfo{compile->number("seconds").value_or(0), compile->flag("cached").value_or(false),
                    compile->text("arch").value_or(""), compile->text("nvrtc_version").value_or(""),
                    compile->text("log").value_or("")};
  evaluation.plan_steps = fields.small_integer("plan_steps").value_or(0);
  evaluation.library_steps = fields.texts("library_steps");
  evaluation.warnings = fields.texts("warnings");
  if (const auto eval = fields.in("eval")) {
    EvalInfo info;
    info.stage = eval->text("stage").value_or("");
    info.seconds = eval->number("seconds");
    if (const Json* trials = eval->find("trials")) {
      if (!trials->is_array()) eval->bad("trials", "a list", trials);
      info.trials = *trials;
    }
    if (const Json* device = eval->find("device")) info.device = *device;
    info.no_gpu_reason = eval->text("no_gpu_reason");
    info.judged_by = eval->text("judged_by");
    if (const Json* simulation = eval->find("simulation")) info.simulation = *simulation;
    if (const Json* shapes = eval->find("shapes")) {
      if (!shapes->is_array() && !shapes->is_null()) eval->bad("shapes", "a list", shapes);
      info.shapes = *shapes;
    }
    evaluation.eval = std::move(info);
  }
  if (const Json* timing = fields.object("timing")) evaluation.timing = *timing;
  evaluation.speedup = fields.number("speedup");
  if (evaluation.speedup && !(*evaluation.speedup > 0))
    fields.bad("speedup", "a positive number or null", fields.find("speedup"));
  evaluation.sol_ms = fields.number("sol_ms");
  evaluation.sol_fraction = fields.number("sol_fraction");
  evaluation.suspicious_fast = fields.flag("suspicious_fast").value_or(false);
  if (const auto sol = fields.in("sol"))
    evaluation.sol = SolInfo{sol->text("binding").value_or(""), sol->text("profile").value_or(""),
                             sol->text("note").value_or("")};
  return evaluation;
}

Json usage_json(const TokenUsage& usage) {
  return {{"input_tokens", optional_json(usage.input_tokens)},
          {"cached_input_tokens", optional_json(usage.cached_input_tokens)},
          {"output_tokens", optional_json(usage.output_tokens)},
          {"reasoning_tokens", optional_json(usage.reasoning_tokens)}};
}

Json artifacts_json(const Artifacts& artifacts) {
  Json out = Json::object();
  const std::pair<const char*, const std::string*> paths[] = {{"response", &artifacts.response},
                                                              {"answer", &artifacts.answer},
                                                              {"cuda", &artifacts.cuda},
                                                              {"plan", &artifacts.plan},
                                                              {"log", &artifacts.log}};
  for (const auto& [name, path] : paths)
    if (!path->empty()) out[name] = *path;
  return out;
}

void write_evaluation(const Evaluation& evaluation, Json& out) {
  out["category"] = evaluation.category;
  out["compile"] = nullptr;
  if (const auto& compile = evaluation.compile)
    out["compile"] = {{"seconds", compile->seconds},
                      {"cached", compile->cached},
                      {"arch", compile->arch},
                      {"nvrtc_version", compile->nvrtc_version},
                      {"log", compile->log}};
  out["plan_steps"] = evaluation.plan_steps;
  out["library_steps"] = evaluation.library_steps;
  out["warnings"] = evaluation.warnings;
  out["eval"] = nullptr;
  if (const auto& eval = evaluation.eval) {
    out["eval"] = {{"stage", eval->stage},
                   {"seconds", optional_json(eval->seconds)},
                   {"trials", eval->trials},
                   {"device", eval->device},
                   {"no_gpu_reason", optional_json(eval->no_gpu_reason)}};
    // Written only when known, so records of earlier pkb versions read and write back unchanged.
    if (eval->judged_by) out["eval"]["judged_by"] = *eval->judged_by;
    if (!eval->simulation.is_null()) out["eval"]["simulation"] = eval->simulation;
    if (!eval->shapes.is_null()) out["eval"]["shapes"] = eval->shapes;
  }
  out["timing"] = evaluation.timing;
  out["speedup"] = optional_json(evaluation.speedup);
  out["sol_ms"] = optional_json(evaluation.sol_ms);
  out["sol_fraction"] = optional_json(evaluation.sol_fraction);
  out["suspicious_fast"] = evaluation.suspicious_fast;
  if (const auto& sol = evaluation.sol) {
    if (sol->note.empty())
      out["sol"] = {{"binding", sol->binding}, {"profile", sol->profile}};
    else
      out["sol"] = {{"note", sol->note}};
  }
}

}  // namespace

const std::vector<std::string>& known_statuses() {
  static const std::vector<std::string> statuses = [] {
    std::vector<std::string> names;
    for (const auto status : all_statuses()) names.emplace_back(status_name(status));
    names.emplace_back("generated");  // a generation record: answered, not judged
    return names;
  }();
  return statuses;
}

void check_schema_version(const nlohmann::json& doc, const std::string& where) {
  const Json* version = Fields(doc, where).find("schema_version");
  if (!version || !version->is_number_integer() || version->get<std::int64_t>() < 1)
    throw InputError(where, "schema_version", "an integer >= 1",
                     version ? shown(*version) : "nothing");
  if (version->get<std::int64_t>() > kMaxSchemaVersion)
    throw InputError(where + ": schema_version " + std::to_string(version->get<std::int64_t>()) +
                     " is newer than this pkb understands (max " +
                     std::to_string(kMaxSchemaVersion) + ")");
}

Record record_from_json(const nlohmann::json& line, const std::string& where) {
  if (!line.is_object()) throw InputError(where + ": expected a JSON object, got " + shown(line));
  check_schema_version(line, where);
  const Fields fields(line, where);
  Record record;
  record.schema_version = line["schema_version"].get<int>();
  record.problem = fields.required_text("problem");
  record.sample = fields.index("sample", true);
  record.turn = fields.index("turn", false);
  record.status = fields.required_text("status");
  const auto& statuses = known_statuses();
  if (std::find(statuses.begin(), statuses.end(), record.status) == statuses.end()) {
    std::string all;
    for (const auto& name : statuses) all += (all.empty() ? "" : ", ") + name;
    throw InputError(where, "status", "one of " + all, "\"" + record.status + "\"");
  }
  record.problem_id = fields.small_integer("problem_id").value_or(0);
  record.world = fields.small_integer("world").value_or(0);
  record.dtype = fields.text("dtype").value_or("");
  record.prompt_sha256 = fields.text("prompt_sha256").value_or("");
  record.conversation_sha256 = fields.text("conversation_sha256");
  record.cache_key = fields.text("cache_key").value_or("");
  record.message = fields.text("message");
  record.attempts = fields.small_integer("attempts");
  record.latency_s = fields.number("latency_s");
  record.request_id = fields.text("request_id");
  if (const Json* adjustments = fields.find("request_adjustments")) {
    if (!adjustments->is_array())
      fields.bad("request_adjustments", "a list of objects", adjustments);
    record.request_adjustments.assign(adjustments->begin(), adjustments->end());
  }
  record.timeouts_after_accept = fields.small_integer("timeouts_after_accept");
  record.failure_kind = fields.text("failure_kind");
  record.http_status = fields.small_integer("http_status");
  record.model = fields.text("model");
  record.response_id = fields.text("response_id");
  record.stop_reason = fields.text("stop_reason");
  record.raw_stop_reason = fields.text("raw_stop_reason");
  if (const auto usage = fields.in("usage")) record.usage = read_usage(*usage);
  record.from_cache = fields.flag("from_cache");
  record.cuda_blocks = fields.small_integer("cuda_blocks");
  record.json_blocks = fields.small_integer("json_blocks");
  record.format_reason = fields.text("format_reason");
  record.cuda_alias_used = fields.flag("cuda_alias_used");
  if (const auto artifacts = fields.in("artifacts")) record.artifacts = read_artifacts(*artifacts);
  record.time = fields.text("time").value_or("");
  if (record.schema_version >= 2) record.evaluation = read_evaluation(fields);
  if (const auto conversation = fields.in("conversation"))
    record.conversation = ConversationState{conversation->small_integer("turns").value_or(1),
                                            conversation->integer("output_tokens").value_or(0),
                                            conversation->text("end")};
  if (const auto feedback = fields.in("feedback"))
    record.feedback =
        FeedbackSent{feedback->text("file").value_or(""), feedback->text("scope").value_or(""),
                     feedback->text("note").value_or("")};
  for (const auto& [key, value] : line.items())
    if (!named_keys().count(key)) record.other[key] = value;
  return record;
}

nlohmann::json to_json(const Record& record) {
  Json out = record.other.is_object() ? record.other : Json::object();
  out["schema_version"] = record.schema_version;
  out["problem"] = record.problem;
  out["problem_id"] = record.problem_id;
  out["sample"] = record.sample;
  out["turn"] = record.turn;
  out["world"] = record.world;
  out["dtype"] = record.dtype;
  out["prompt_sha256"] = record.prompt_sha256;
  if (record.conversation_sha256) out["conversation_sha256"] = *record.conversation_sha256;
  out["cache_key"] = record.cache_key;
  out["status"] = record.status;
  if (record.message) out["message"] = *record.message;
  if (record.attempts) out["attempts"] = *record.attempts;
  if (record.latency_s) out["latency_s"] = *record.latency_s;
  if (record.request_id) out["request_id"] = *record.request_id;
  if (!record.request_adjustments.empty()) out["request_adjustments"] = record.request_adjustments;
  if (record.timeouts_after_accept) out["timeouts_after_accept"] = *record.timeouts_after_accept;
  if (record.failure_kind) out["failure_kind"] = *record.failure_kind;
  if (record.http_status) out["http_status"] = *record.http_status;
  if (record.model) out["model"] = *record.model;
  if (record.response_id) out["response_id"] = *record.response_id;
  if (record.stop_reason) out["stop_reason"] = *record.stop_reason;
  if (record.raw_stop_reason) out["raw_stop_reason"] = *record.raw_stop_reason;
  if (record.usage) out["usage"] = usage_json(*record.usage);
  if (record.from_cache) out["from_cache"] = *record.from_cache;
  if (record.cuda_blocks) out["cuda_blocks"] = *record.cuda_blocks;
  if (record.json_blocks) out["json_blocks"] = *record.json_blocks;
  if (record.format_reason) out["format_reason"] = *record.format_reason;
  if (record.cuda_alias_used) out["cuda_alias_used"] = *record.cuda_alias_used;
  if (record.artifacts) out["artifacts"] = artifacts_json(*record.artifacts);
  if (!record.time.empty()) out["time"] = record.time;
  if (record.evaluation) write_evaluation(*record.evaluation, out);
  if (const auto& conversation = record.conversation) {
    out["conversation"] = {{"turns", conversation->turns},
                           {"output_tokens", conversation->output_tokens},
                           {"end", optional_json(conversation->end)}};
    out["feedback"] = nullptr;
  }
  if (const auto& feedback = record.feedback)
    out["feedback"] = {
        {"file", feedback->file}, {"scope", feedback->scope}, {"note", feedback->note}};
  return out;
}

std::vector<TrialResult> trial_results(const EvalInfo& eval) {
  std::vector<TrialResult> out;
  if (!eval.trials.is_array()) return out;
  for (const auto& trial : eval.trials) {
    if (!trial.is_object()) continue;
    TrialResult result;
    result.passed = flag_in(trial, "passed");
    result.skewed = flag_in(trial, "skewed");
    result.tensor = text_in(trial, "tensor");
    result.shape = text_in(trial, "shape");
    result.rank = number_in(trial, "rank");
    result.max_abs_err = number_in(trial, "max_abs_err");
    result.max_rel_err = number_in(trial, "max_rel_err");
    result.error_ratio = number_in(trial, "error_ratio");
    result.mismatches = number_in(trial, "mismatches");
    // An int (flat index, -1 for none: docs/RESULTS.md) or a list of coordinates (the worker's).
    const auto index = trial.find("first_bad_index");
    if (index != trial.end() && index->is_number_integer() && index->get<std::int64_t>() >= 0)
      result.first_bad_index = {index->get<std::int64_t>()};
    if (index != trial.end() && index->is_array() &&
        std::all_of(index->begin(), index->end(),
                    [](const Json& c) { return c.is_number_integer(); })) {
      result.first_bad_is_coordinates = true;
      for (const auto& coordinate : *index)
        result.first_bad_index.push_back(coordinate.get<std::int64_t>());
    }
    out.push_back(std::move(result));
  }
  return out;
}

std::optional<TimingSummary> timing_summary(const nlohmann::json& timing) {
  if (!timing.is_object() || timing.empty()) return std::nullopt;
  const auto stats = [&](const char* name) {
    const auto it = timing.find(name);
    if (it == timing.end() || !it->is_object()) return TimeStats{};
    return TimeStats{number_in(*it, "median_us"), number_in(*it, "p10_us"),
                     number_in(*it, "p90_us"), number_in(*it, "iterations")};
  };
  TimingSummary summary;
  summary.candidate = stats("candidate");
  summary.baseline = stats("baseline");
  summary.baseline_kind = text_in(timing, "baseline_kind");
  summary.speedup = number_in(timing, "speedup");
  summary.emulated = flag_in(timing, "emulated");
  summary.sol_flag = flag_in(timing, "sol_flag");
  return summary;
}

}  // namespace pkb::results
