// resolve_plan and resolve_all_ranks: the plan's buffers next to the problem's inputs and
// outputs, sizes checked for overflow and against the memory cap, then every step (in
// plan_resolve_steps.cpp) in issue order.
#include <algorithm>
#include <set>

#include "harness/plan/plan_resolver.h"
#include "src/common/did_you_mean.h"
#include "src/problem/groups.h"

namespace pkb::plan {
namespace {

constexpr std::uint64_t kAlignment = 256;  // every allocation starts on this boundary

std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b, bool& overflow) {
  std::uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product) || product > (1ull << 62)) overflow = true;
  return product;
}

std::uint64_t aligned(std::uint64_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

std::string gib(std::uint64_t bytes) {
  return std::to_string(static_cast<double>(bytes) / double(1ull << 30)).substr(0, 6) + " GiB";
}

}  // namespace

RankResolver::RankResolver(const ParsedPlan& plan, const PlanTarget& target, int rank)
    : plan_(plan), target_(target), rank_(rank) {
  PKB_ASSERT(target.spec != nullptr, "PlanTarget without a problem");
  env_ = problem::make_env(target.dims, target.world, rank);
  env_["num_sms"] = target.limits.num_sms;
  for (const auto& scalar : target.spec->scalars)
    if (scalar.type == problem::ScalarType::int64) env_[scalar.name] = static_cast<std::int64_t>(scalar.value);
  // group_rank(NAME), group_size(NAME); a size that does not divide W is refused where a step
  // names the group (resolve_collective), not in every expression.
  for (const auto& group : target.spec->groups) {
    out_.group_names.push_back(group.name);
    try {
      const int size = problem::group_size(group, target.world, target.dims);
      env_[problem::group_size_name(group.name)] = size;
      env_[problem::group_rank_name(group.name)] =
          problem::group_instance(target.world, rank, size, group.layout).rank;
    } catch (const Error&) {
    }
  }
  out_.rank = rank;
  out_.world = target.world;
}

void RankResolver::fail(const std::string& where, const std::string& why) const {
  throw PlanError("plan: " + where + ": " + why + " (rank " + std::to_string(rank_) + " of " +
                  std::to_string(target_.world) + ")");
}

std::int64_t RankResolver::eval(const ShapeExpr& expr, const std::string& where) const {
  try {
    return expr.eval(env_);
  } catch (const problem::UnknownNameError& e) {
    fail(where, std::string(e.what()) +
                    "; the names an expression may use are the problem's dims, "
                    "its integer scalars, W, rank and num_sms" +
                    group_names_hint());
  } catch (const Error& e) {
    fail(where, e.what());
  }
}

std::string RankResolver::group_names_hint() const {
  if (out_.group_names.empty()) return "";
  std::string names;
  for (const auto& name : out_.group_names) names += (names.empty() ? "" : ", ") + name;
  return ", and group_rank(G) and group_size(G) for the problem's groups G (" + names + ")";
}

std::int64_t RankResolver::eval_or(const ExprField& field, std::int64_t fallback) const {
  return field.expr ? eval(*field.expr, field.where) : fallback;
}

int RankResolver::buffer(const std::string& name, const std::string& where) const {
  const int index = out_.find_buffer(name);
  if (index >= 0) return index;
  std::vector<std::string> names;
  for (const auto& b : out_.buffers) names.push_back(b.name);
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  const auto close = closest_match(name, names);
  fail(where, "unknown buffer '" + name + "'" + (close ? ", did you mean '" + *close + "'?" : "") +
                  " (buffers: " + known + ")");
}

void RankResolver::require_writable(int index, const std::string& where) const {
  if (buf(index).role == BufferRole::input)
    fail(where, "'" + buf(index).name + "' is an input of the problem, and inputs are read-only");
}

void RankResolver::require_range(int index, std::uint64_t offset, std::uint64_t count,
                                 const std::string& where) const {
  const auto& b = buf(index);
  if (offset > b.numel || count > b.numel - offset)
    fail(where, "elements [" + std::to_string(offset) + ", " + std::to_string(offset + count) +
                    ") are outside '" + b.name + "', which holds " + std::to_string(b.numel));
}

void RankResolver::resolve_buffers() {
  const auto& spec = *target_.spec;
  std::set<std::string> inout_names;
  for (const auto& output : spec.outputs)
    if (output.inout) inout_names.insert(output.name);
  auto add_problem_tensor = [&](const problem::TensorSpec& tensor, BufferRole role) {
    ResolvedBuffer buffer;
    buffer.name = tensor.name;
    buffer.role = role;
    buffer.kind = BufferKind::symmetric;
    buffer.dtype = tensor.dtype.resolve(target_.dtype);
    buffer.shape = problem::eval_shape(tensor, problem::make_env(target_.dims, target_.world, rank_));
    buffer.inout = tensor.inout;
    out_.buffers.push_back(buffer);
  };
  // An inout tensor is one buffer: the candidate's copy, initialised with the input's values.
  for (const auto& input : spec.inputs)
    if (!inout_names.count(input.name)) add_problem_tensor(input, BufferRole::input);
  for (const auto& output : spec.outputs) add_problem_tensor(output, BufferRole::output);

  const std::set<std::string> reserved = {"signals", "ctx", "W", "rank", "num_sms"};
  for (const auto& parsed : plan_.buffers) {
    if (reserved.count(parsed.name)) fail(parsed.where + ".name", "'" + parsed.name + "' is a reserved name");
    const int existing = out_.find_buffer(parsed.name);
    if (existing >= 0) {
      const auto& other = buf(existing);
      fail(parsed.where + ".name", "'" + parsed.name + "' is already " +
                                       (other.role == BufferRole::plan ? std::string("a plan buffer")
                                                                        : "the problem's " +
                                                                              std::string(other.role == BufferRole::input ? "input" : "output")));
    }
    ResolvedBuffer buffer;
    buffer.name = parsed.name;
    buffer.kind = parsed.kind;
    buffer.role = BufferRole::plan;
    buffer.dtype = parsed.dtype.value_or(target_.dtype);
    for (std::size_t d = 0; d < parsed.shape.size(); ++d) {
      const std::string where = parsed.where + ".shape[" + std::to_string(d) + "]";
      const std::int64_t size = eval(parsed.shape[d], where);
      if (size < 0) fail(where, "a size must not be negative, got " + std::to_string(size));
      buffer.shape.push_back(size);
    }
    if (buffer.kind == BufferKind::multicast && !target_.limits.multicast)
      fail(parsed.where + ".kind", "multicast buffers need NVSwitch multicast, which this machine lacks");
    out_.buffers.push_back(buffer);
  }
  for (auto& buffer : out_.buffers) {
    bool overflow = false;
    std::uint64_t numel = 1;
    for (std::int64_t size : buffer.shape) numel = checked_mul(numel, static_cast<std::uint64_t>(size), overflow);
    buffer.numel = numel;
    buffer.bytes = checked_mul(numel, dtype_size(buffer.dtype), overflow);
    buffer.bytes_max = buffer.bytes;
    if (overflow) fail("buffers", "'" + buffer.name + "' is too large: its byte count overflows");
  }
}

ResolvedPlan RankResolver::resolve() {
  resolve_buffers();
  out_.events = plan_.events;
  std::set<int> streams = {0};
  for (int index : plan_.order) {
    out_.steps.push_back(resolve_step(plan_.steps[index]));
    streams.insert(out_.steps.back().stream);
  }
  out_.streams_used.assign(streams.begin(), streams.end());
  return out_;
}

ResolvedPlan resolve_plan(const ParsedPlan& plan, const PlanTarget& target, int rank) {
  return RankResolver(plan, target, rank).resolve();
}

std::vector<ResolvedPlan> resolve_all_ranks(const ParsedPlan& plan, const PlanTarget& target) {
  std::vector<ResolvedPlan> plans;
  for (int rank = 0; rank < target.world; ++rank) plans.push_back(resolve_plan(plan, target, rank));
  const std::size_t buffer_count = plans[0].buffers.size();
  for (std::size_t b = 0; b < buffer_count; ++b) {
    std::uint64_t largest = 0;
    for (const auto& p : plans) largest = std::max(largest, p.buffers[b].bytes);
    for (auto& p : plans) {
      const auto& buffer = p.buffers[b];
      if (buffer.role == BufferRole::plan && buffer.kind != BufferKind::local && buffer.bytes != plans[0].buffers[b].bytes)
        throw PlanError("plan: buffers: '" + buffer.name + "' is " + std::string(buffer_kind_name(buffer.kind)) +
                        " but has " + std::to_string(plans[0].buffers[b].bytes) + " bytes on rank 0 and " +
                        std::to_string(buffer.bytes) + " on rank " + std::to_string(p.rank) +
                        " (a symmetric buffer has one size on every rank)");
      p.buffers[b].bytes_max = buffer.kind == BufferKind::local ? buffer.bytes : largest;
    }
  }
  for (const auto& p : plans) {
    std::uint64_t total = 0;
    for (const auto& buffer : p.buffers) total += aligned(buffer.bytes_max);
    if (total > target.limits.memory_cap_bytes)
      throw PlanError("plan: buffers: rank " + std::to_string(p.rank) + " needs " + gib(total) +
                      " for its buffers and the problem's tensors, over the cap of " +
                      gib(target.limits.memory_cap_bytes) + " per rank");
  }
  check_peer_ranges(plans);
  check_cross_rank(plans);
  return plans;
}

}  // namespace pkb::plan
