// parse_plan: the plan's JSON text to a ParsedPlan, every field checked against docs/ABI.md.
#include <regex>

#include <nlohmann/json.hpp>

#include "harness/plan/plan_parsed.h"
#include "harness/plan/plan_resolve.h"
#include "src/problem/json_fields.h"

namespace pkb::plan {
namespace {

using problem::JsonFields;

const std::regex kNamePattern("[A-Za-z_][A-Za-z0-9_]*");

ShapeExpr parse_expr(const JsonFields& fields, const std::string& key) {
  const auto& value = fields.raw().at(key);
  try {
    if (value.is_number_integer()) return ShapeExpr::parse(value.dump());  // digits as written: no wrap
    if (value.is_string()) return ShapeExpr::parse(value.get<std::string>());
  } catch (const Error& e) {
    throw PlanError("plan: " + fields.field(key) + ": " + e.what());
  }
  fields.fail(key, "an integer or an expression string", JsonFields::describe(value));
}

ExprField expr_field(const JsonFields& fields, const std::string& key) {
  ExprField field{std::nullopt, fields.field(key)};
  if (fields.has(key)) field.expr = parse_expr(fields, key);
  return field;
}

/// A list of expressions (a shape), each an integer or an expression string.
std::vector<ShapeExpr> expr_list(const JsonFields& fields, const std::string& key) {
  const auto& list = fields.raw().at(key);
  std::vector<ShapeExpr> exprs;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const nlohmann::json wrapper = {{"item", list.at(i)}};
    const std::string where = fields.field(key) + "[" + std::to_string(i) + "]";
    const auto& item = wrapper.at("item");
    try {
      if (item.is_number_integer()) exprs.push_back(ShapeExpr::parse(item.dump()));
      else if (item.is_string()) exprs.push_back(ShapeExpr::parse(item.get<std::string>()));
      else throw PlanError("expected an integer or an expression string, got " + JsonFields::describe(item));
    } catch (const Error& e) {
      throw PlanError("plan: " + where + ": " + e.what());
    }
  }
  return exprs;
}

/// grid, block, cluster: an expression or a list of 1 to 3.
std::vector<ShapeExpr> dims_field(const JsonFields& fields, const std::string& key) {
  const auto& value = fields.raw().at(key);
  if (!value.is_array()) return {parse_expr(fields, key)};
  if (value.empty() || value.size() > 3) fields.fail(key, "1 to 3 sizes", JsonFields::describe(value));
  return expr_list(fields, key);
}

std::string name_field(const JsonFields& fields, const std::string& key) {
  std::string name = fields.string(key);
  if (!std::regex_match(name, kNamePattern))
    fields.fail(key, "a name ([A-Za-z_][A-Za-z0-9_]*)", JsonFields::describe(name));
  return name;
}

template <class Enum>
Enum enum_field(const JsonFields& fields, const std::string& key,
                const std::vector<std::pair<std::string, Enum>>& names, Enum fallback) {
  if (!fields.has(key)) return fallback;
  const std::string text = fields.string(key);
  std::string all;
  for (const auto& [name, value] : names) {
    if (name == text) return value;
    all += (all.empty() ? "" : ", ") + name;
  }
  fields.fail(key, "one of " + all, JsonFields::describe(text));
}

ParsedBuffer parse_buffer(const JsonFields& fields) {
  fields.reject_unknown({"name", "kind", "dtype", "shape", "comment"});
  ParsedBuffer buffer;
  buffer.where = fields.path();
  buffer.name = name_field(fields, "name");
  buffer.kind = enum_field<BufferKind>(fields, "kind",
                                       {{"local", BufferKind::local},
                                        {"symmetric", BufferKind::symmetric},
                                        {"multicast", BufferKind::multicast}},
                                       BufferKind::local);
  const std::string dtype = fields.string("dtype");
  if (dtype != "P") {
    buffer.dtype = parse_dtype(dtype);
    if (!buffer.dtype) fields.fail("dtype", "P or one of " + dtype_names_list(), JsonFields::describe(dtype));
  }
  if (!fields.has("shape") || !fields.raw().at("shape").is_array())
    fields.fail("shape", "a list of sizes ([] for one element)",
                fields.has("shape") ? JsonFields::describe(fields.raw().at("shape")) : "nothing");
  buffer.shape = expr_list(fields, "shape");
  return buffer;
}

void parse_kernel(const JsonFields& fields, ParsedStep& step) {
  step.kernel = name_field(fields, "kernel");
  step.grid = dims_field(fields, "grid");
  step.block = dims_field(fields, "block");
  if (fields.has("cluster")) step.cluster = dims_field(fields, "cluster");
  step.shared_bytes = expr_field(fields, "shared_bytes");
  step.cooperative = fields.boolean_or("cooperative", false);
  if (!fields.has("args")) return;
  const JsonFields args = fields.child("args");
  if (!args.raw().is_array()) fields.fail("args", "a list of argument strings", JsonFields::describe(args.raw()));
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& value = args.raw().at(i);
    const std::string where = args.path() + "[" + std::to_string(i) + "]";
    if (!value.is_string())
      throw PlanError("plan: " + where + ": expected an argument string such as \"x\", \"peers(x)\" or "
                      "\"i32(N)\", got " + JsonFields::describe(value));
    step.args.push_back(parse_arg(value.get<std::string>(), where));
  }
}

void parse_data_step(const JsonFields& fields, ParsedStep& step) {
  switch (step.op) {
    case StepOp::memset: {
      step.buffer = name_field(fields, "buffer");
      const std::int64_t value = fields.has("value") ? fields.integer("value") : 0;
      if (value < 0 || value > 255) fields.fail("value", "a byte value 0..255", std::to_string(value));
      step.value = static_cast<int>(value);
      break;
    }
    case StepOp::copy:
      step.dst = name_field(fields, "dst");
      step.src = name_field(fields, "src");
      step.count = expr_field(fields, "count");
      if (!step.count.expr) fields.fail("count", "an element count", "nothing (the field is missing)");
      step.dst_offset = expr_field(fields, "dst_offset");
      step.src_offset = expr_field(fields, "src_offset");
      step.dst_rank = expr_field(fields, "dst_rank");
      step.src_rank = expr_field(fields, "src_rank");
      break;
    case StepOp::gemm:
      step.a = name_field(fields, "a");
      step.b = name_field(fields, "b");
      step.c = name_field(fields, "c");
      for (auto [key, field] : {std::pair{"m", &step.m}, {"n", &step.n}, {"k", &step.k}}) {
        *field = expr_field(fields, key);
        if (!field->expr) fields.fail(key, "a size", "nothing (the field is missing)");
      }
      step.lda = expr_field(fields, "lda");
      step.ldb = expr_field(fields, "ldb");
      step.ldc = expr_field(fields, "ldc");
      step.a_offset = expr_field(fields, "a_offset");
      step.b_offset = expr_field(fields, "b_offset");
      step.c_offset = expr_field(fields, "c_offset");
      step.trans_a = fields.boolean_or("trans_a", false);
      step.trans_b = fields.boolean_or("trans_b", false);
      if (fields.has("alpha")) step.alpha = fields.number("alpha");
      if (fields.has("beta")) step.beta = fields.number("beta");
      break;
    default:
      break;
  }
}

void parse_collective(const JsonFields& fields, ParsedStep& step) {
  step.collective = enum_field<CollectiveKind>(
      fields, "kind",
      {{"all_reduce", CollectiveKind::all_reduce}, {"all_gather", CollectiveKind::all_gather},
       {"reduce_scatter", CollectiveKind::reduce_scatter}, {"all_to_all", CollectiveKind::all_to_all},
       {"broadcast", CollectiveKind::broadcast}, {"reduce", CollectiveKind::reduce},
       {"send", CollectiveKind::send}, {"recv", CollectiveKind::recv}},
      CollectiveKind::all_reduce);
  if (!fields.has("kind")) fields.fail("kind", "a collective kind", "nothing (the field is missing)");
  if (step.collective != CollectiveKind::recv) step.send = name_field(fields, "send");
  if (step.collective != CollectiveKind::send) step.recv = name_field(fields, "recv");
  step.count = expr_field(fields, "count");
  if (!step.count.expr) fields.fail("count", "an element count", "nothing (the field is missing)");
  step.src_offset = expr_field(fields, "send_offset");
  step.dst_offset = expr_field(fields, "recv_offset");
  step.reduce = enum_field<ReduceOp>(fields, "reduce",
                                     {{"sum", ReduceOp::sum}, {"prod", ReduceOp::prod},
                                      {"max", ReduceOp::max}, {"min", ReduceOp::min},
                                      {"avg", ReduceOp::avg}},
                                     ReduceOp::sum);
  step.root = expr_field(fields, "root");
  step.peer = expr_field(fields, "peer");
  step.group_where = fields.field("group");
  if (fields.has("group")) step.group = name_field(fields, "group");
  const bool rooted = step.collective == CollectiveKind::broadcast || step.collective == CollectiveKind::reduce;
  const bool paired = step.collective == CollectiveKind::send || step.collective == CollectiveKind::recv;
  if (rooted && !step.root.expr) fields.fail("root", "the root rank", "nothing (the field is missing)");
  if (paired && !step.peer.expr) fields.fail("peer", "the peer rank", "nothing (the field is missing)");
}

const std::set<std::string>& fields_of(StepOp op) {
  static const std::map<StepOp, std::set<std::string>> table = {
      {StepOp::kernel, {"kernel", "grid", "block", "shared_bytes", "args", "cooperative", "cluster"}},
      {StepOp::memset, {"buffer", "value"}},
      {StepOp::copy, {"dst", "src", "count", "dst_offset", "src_offset", "dst_rank", "src_rank"}},
      {StepOp::gemm, {"a", "b", "c", "m", "n", "k", "lda", "ldb", "ldc", "a_offset", "b_offset",
                      "c_offset", "trans_a", "trans_b", "alpha", "beta"}},
      {StepOp::collective, {"kind", "send", "recv", "count", "send_offset", "recv_offset", "reduce",
                            "root", "peer", "group"}},
      {StepOp::barrier, {}},
  };
  return table.at(op);
}

ParsedStep parse_step(const JsonFields& fields, int index) {
  if (!fields.raw().is_object())
    throw PlanError("plan: " + fields.path() + ": expected a step object, got " + JsonFields::describe(fields.raw()));
  ParsedStep step;
  step.index = index;
  step.where = fields.path();
  step.op = enum_field<StepOp>(fields, "op",
                               {{"kernel", StepOp::kernel}, {"memset", StepOp::memset},
                                {"copy", StepOp::copy}, {"gemm", StepOp::gemm},
                                {"collective", StepOp::collective}, {"barrier", StepOp::barrier}},
                               StepOp::kernel);
  if (!fields.has("op")) fields.fail("op", "one of kernel, memset, copy, gemm, collective, barrier", "nothing (the field is missing)");
  std::set<std::string> allowed = fields_of(step.op);
  allowed.insert({"op", "stream", "wait", "record", "comment"});
  fields.reject_unknown(allowed);
  if (fields.has("stream")) {
    const std::int64_t stream = fields.integer("stream");
    if (stream < 0 || stream >= kMaxStreams)
      fields.fail("stream", "a stream number 0.." + std::to_string(kMaxStreams - 1), std::to_string(stream));
    step.stream = static_cast<int>(stream);
  }
  if (fields.has("wait")) {
    const JsonFields waits = fields.child("wait");
    for (std::size_t i = 0; i < waits.size(); ++i) {
      const auto& value = waits.raw().at(i);
      if (!value.is_string() || !std::regex_match(value.get<std::string>(), kNamePattern))
        throw PlanError("plan: " + waits.path() + "[" + std::to_string(i) + "]: expected an event name, got " +
                        JsonFields::describe(value));
      step.waits.push_back(value.get<std::string>());
    }
    if (!waits.raw().is_array()) fields.fail("wait", "a list of event names", JsonFields::describe(waits.raw()));
  }
  if (fields.has("record")) step.record = name_field(fields, "record");
  if (step.op == StepOp::kernel) parse_kernel(fields, step);
  else if (step.op == StepOp::collective) parse_collective(fields, step);
  else parse_data_step(fields, step);
  return step;
}

}  // namespace

std::shared_ptr<const ParsedPlan> parse_plan(const std::string& json_text) {
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::parse_error& e) {
    throw PlanError(std::string("plan: not valid JSON: ") + e.what());
  }
  if (!root.is_object()) throw PlanError("plan: expected a JSON object with \"steps\", got " + JsonFields::describe(root));
  auto plan = std::make_shared<ParsedPlan>();
  try {
    const JsonFields fields(root, "plan", "");
    fields.reject_unknown({"buffers", "steps", "comment"});
    if (fields.has("buffers")) {
      const JsonFields buffers = fields.child("buffers");
      if (!buffers.raw().is_array()) fields.fail("buffers", "a list", JsonFields::describe(buffers.raw()));
      if (buffers.size() > kMaxBuffers)
        fields.fail("buffers", "at most " + std::to_string(kMaxBuffers) + " buffers", std::to_string(buffers.size()));
      for (std::size_t i = 0; i < buffers.size(); ++i) plan->buffers.push_back(parse_buffer(buffers.element(i)));
    }
    const JsonFields steps = fields.child("steps");
    if (!steps.raw().is_array() || steps.size() == 0)
      fields.fail("steps", "a non-empty list of steps", JsonFields::describe(steps.raw()));
    if (steps.size() > kMaxSteps)
      fields.fail("steps", "at most " + std::to_string(kMaxSteps) + " steps", std::to_string(steps.size()));
    for (std::size_t i = 0; i < steps.size(); ++i)
      plan->steps.push_back(parse_step(steps.element(i), static_cast<int>(i)));
  } catch (const InputError& e) {
    throw PlanError(e.what());
  }
  plan->order = issue_order(plan->steps, plan->events);
  return plan;
}

}  // namespace pkb::plan
