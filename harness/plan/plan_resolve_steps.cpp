// RankResolver's steps: kernel launches (limits, arguments against the compiled signature),
// memset, copy, gemm and collective steps (buffers, ranges, read-only inputs).
#include <algorithm>
#include <limits>

#include "harness/plan/plan_resolver.h"
#include "harness/plan/param_types.h"
#include "src/common/did_you_mean.h"

namespace pkb::plan {

ResolvedStep RankResolver::resolve_step(const ParsedStep& step) {
  ResolvedStep out;
  out.index = step.index;
  out.op = step.op;
  out.stream = step.stream;
  auto event_id = [&](const std::string& name) {
    return static_cast<int>(std::find(plan_.events.begin(), plan_.events.end(), name) - plan_.events.begin());
  };
  for (const auto& wait : step.waits) out.waits.push_back(event_id(wait));
  if (!step.record.empty()) out.record = event_id(step.record);
  switch (step.op) {
    case StepOp::kernel: out.kernel = resolve_kernel(step); break;
    case StepOp::memset:
      out.memset.buffer = buffer(step.buffer, step.where + ".buffer");
      require_writable(out.memset.buffer, step.where + ".buffer");
      out.memset.value = static_cast<std::uint8_t>(step.value);
      break;
    case StepOp::copy: resolve_copy(step, out.copy); break;
    case StepOp::gemm: resolve_gemm(step, out.gemm); break;
    case StepOp::collective: resolve_collective(step, out.collective); break;
    case StepOp::barrier: break;
  }
  return out;
}

namespace {

/// A grid, block or cluster: every size at least 1 and within `limit` (per axis), each message
/// naming the axis's JSON location and the value the expression gave.
Dim3 to_dim3(RankResolver& r, const std::vector<ShapeExpr>& exprs, const Dim3& limit, const std::string& what,
             const std::string& where) {
  const char axis[3] = {'x', 'y', 'z'};
  const std::uint32_t limits[3] = {limit.x, limit.y, limit.z};
  std::uint32_t values[3] = {1, 1, 1};
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    const std::int64_t value = r.eval(exprs[i], at);
    if (value < 1) r.fail(at, "expected a size of at least 1, got " + std::to_string(value));
    if (value > std::int64_t{limits[i]})
      r.fail(at, what + " " + axis[i] + " is " + std::to_string(value) + ", over the device's limit of " +
                     std::to_string(limits[i]));
    values[i] = static_cast<std::uint32_t>(value);
  }
  return {values[0], values[1], values[2]};
}

bool is_float_param(const compile::KernelParam& param) {
  return param.ptx_type.rfind(".f", 0) == 0;
}

}  // namespace

KernelStep RankResolver::resolve_kernel(const ParsedStep& step) {
  KernelStep kernel;
  kernel.kernel = step.kernel;
  const auto& limits = target_.limits;
  kernel.grid = to_dim3(*this, step.grid, limits.max_grid, "grid", step.where + ".grid");
  kernel.block = to_dim3(*this, step.block, limits.max_block, "block", step.where + ".block");
  if (kernel.block.total() > limits.max_threads_per_block)
    fail(step.where + ".block", "a block of " + std::to_string(kernel.block.total()) +
                                    " threads is over the device's limit of " +
                                    std::to_string(limits.max_threads_per_block));
  if (!step.cluster.empty()) {
    kernel.cluster = to_dim3(*this, step.cluster, Dim3{16, 16, 16}, "cluster", step.where + ".cluster");
    if (kernel.cluster.total() > 16)
      fail(step.where + ".cluster", "a cluster of " + std::to_string(kernel.cluster.total()) +
                                        " blocks is over the limit of 16");
    if (kernel.grid.x % kernel.cluster.x || kernel.grid.y % kernel.cluster.y || kernel.grid.z % kernel.cluster.z)
      fail(step.where + ".cluster", "the grid must be a multiple of the cluster in every dimension");
  }
  const std::int64_t shared = eval_or(step.shared_bytes, 0);
  if (shared < 0 || static_cast<std::uint64_t>(shared) > limits.max_shared_bytes)
    fail(step.shared_bytes.where, std::to_string(shared) + " bytes of shared memory, the device allows 0 to " +
                                      std::to_string(limits.max_shared_bytes) + " per block");
  kernel.shared_bytes = static_cast<std::uint32_t>(shared);
  kernel.cooperative = step.cooperative;
  if (kernel.cooperative && kernel.grid.total() > std::uint64_t(limits.num_sms) * 32)
    fail(step.where + ".grid", "a cooperative grid of " + std::to_string(kernel.grid.total()) +
                                   " blocks cannot be resident on " + std::to_string(limits.num_sms) + " SMs");
  resolve_kernel_args(step, kernel);
  return kernel;
}

void RankResolver::resolve_kernel_args(const ParsedStep& step, KernelStep& kernel) {
  const compile::KernelSignature* signature = nullptr;
  std::vector<std::string> names;
  for (const auto& candidate : target_.kernels) {
    names.push_back(candidate.name);
    if (candidate.name == step.kernel) signature = &candidate;
  }
  if (!signature) {
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    const auto close = closest_match(step.kernel, names);
    fail(step.where + ".kernel",
         "'" + step.kernel + "' is not an extern \"C\" __global__ kernel of the source" +
             (close ? ", did you mean '" + *close + "'?" : "") +
             " (kernels: " + (known.empty() ? "none" : known) + ")");
  }
  if (signature->params.size() != step.args.size())
    fail(step.where + ".args", "kernel '" + step.kernel + "' takes " + std::to_string(signature->params.size()) +
                                   " parameters, the plan passes " + std::to_string(step.args.size()));
  for (std::size_t i = 0; i < step.args.size(); ++i) {
    const std::string where = step.where + ".args[" + std::to_string(i) + "]";
    ResolvedArg arg = resolve_arg(step.args[i], where);
    const auto& param = signature->params[i];
    if (arg.bytes() != param.size)
      fail(where, "\"" + arg.text + "\" is " + std::to_string(arg.bytes()) + " bytes, but parameter " +
                      std::to_string(i) + " of '" + step.kernel + "' is " + std::to_string(param.size) +
                      " bytes (" + param.ptx_type + ")");
    const bool float_arg = arg.kind == ArgKind::f32 || arg.kind == ArgKind::f64;
    const bool scalar_param = param.ptx_type.find(".b8") == std::string::npos;
    if (scalar_param && float_arg != is_float_param(param))
      fail(where, "\"" + arg.text + "\" is " + (float_arg ? "a floating" : "an integer or pointer") +
                      " value, but parameter " + std::to_string(i) + " of '" + step.kernel + "' is " +
                      param.ptx_type);
    check_param_type(arg, param, i, step.kernel, where);
    kernel.args.push_back(arg);
  }
}

// The C++ parameter type, where the compile could read it: pointers take buffers of their element
// type, Peers<T> takes peers(), the structs take signals and ctx, and integers never fill a pointer.
void RankResolver::check_param_type(const ResolvedArg& arg, const compile::KernelParam& param, std::size_t index,
                                    const std::string& kernel, const std::string& where) const {
  const ParamType type = classify_param(param.source_type);
  if (type.shape == ParamShape::unknown) return;
  const std::string label = "parameter " + (param.name.empty() ? std::to_string(index) : "'" + param.name + "'") +
                            " of '" + kernel + "' is " + param.source_type;
  const std::string quoted = "\"" + arg.text + "\"";
  auto require = [&](ParamShape shape, const std::string& arg_is) {
    if (type.shape != shape) fail(where, quoted + " is " + arg_is + ", but " + label);
  };
  auto require_element = [&]() {
    const auto& buffer = buf(arg.buffer);
    if (const auto why = element_mismatch(type.element, buffer.dtype))
      fail(where, label + ", but buffer '" + buffer.name + "' " + *why);
  };
  switch (arg.kind) {
    case ArgKind::pointer:
    case ArgKind::multicast:
      require(ParamShape::pointer, "a pointer to a buffer");
      require_element();
      break;
    case ArgKind::peers:
      require(ParamShape::peers, "a pkb::Peers<T>");
      require_element();
      break;
    case ArgKind::signals: require(ParamShape::signal_pad, "the pkb::SignalPad"); break;
    case ArgKind::context: require(ParamShape::context, "the pkb::Context"); break;
    case ArgKind::i32:
    case ArgKind::u32:
    case ArgKind::i64:
    case ArgKind::u64:
    case ArgKind::f32:
    case ArgKind::f64:
      if (type.shape != ParamShape::value) fail(where, quoted + " is a number, but " + label);
      break;
  }
}

double RankResolver::float_scalar(const ParsedArg& arg, const std::string& where) const {
  if (arg.literal) return *arg.literal;
  for (const auto& scalar : target_.spec->scalars)
    if (scalar.name == arg.scalar) return scalar.value;
  fail(where, "'" + arg.scalar + "' is neither a number nor a scalar of the problem");
}

ResolvedArg RankResolver::resolve_arg(const ParsedArg& parsed, const std::string& where) {
  ResolvedArg arg;
  arg.kind = parsed.kind;
  arg.text = parsed.text;
  switch (parsed.kind) {
    case ArgKind::pointer: {
      arg.buffer = buffer(parsed.buffer, where);
      const std::int64_t offset = parsed.expr ? eval(*parsed.expr, where) : 0;
      if (offset < 0 || static_cast<std::uint64_t>(offset) > buf(arg.buffer).numel)
        fail(where, "element offset " + std::to_string(offset) + " is outside '" + parsed.buffer + "', which holds " +
                        std::to_string(buf(arg.buffer).numel));
      arg.element_offset = static_cast<std::uint64_t>(offset);
      break;
    }
    case ArgKind::peers:
    case ArgKind::multicast: {
      arg.buffer = buffer(parsed.buffer, where);
      const auto kind = buf(arg.buffer).kind;
      if (parsed.kind == ArgKind::peers && kind == BufferKind::local)
        fail(where, "'" + parsed.buffer + "' is local: peers() needs a symmetric or multicast buffer");
      if (parsed.kind == ArgKind::multicast && kind != BufferKind::multicast)
        fail(where, "'" + parsed.buffer + "' is " + std::string(buffer_kind_name(kind)) +
                        ": multicast() needs a buffer of kind multicast");
      break;
    }
    case ArgKind::i32:
    case ArgKind::u32:
    case ArgKind::i64:
    case ArgKind::u64: {
      const std::int64_t value = eval(*parsed.expr, where);
      const bool fits = parsed.kind == ArgKind::i32   ? value >= INT32_MIN && value <= INT32_MAX
                        : parsed.kind == ArgKind::u32 ? value >= 0 && value <= UINT32_MAX
                        : parsed.kind == ArgKind::u64 ? value >= 0
                                                      : true;
      if (!fits) fail(where, std::to_string(value) + " does not fit \"" + parsed.text + "\"");
      arg.int_value = value;
      break;
    }
    case ArgKind::f32:
    case ArgKind::f64: arg.float_value = float_scalar(parsed, where); break;
    case ArgKind::signals:
    case ArgKind::context: break;
  }
  return arg;
}

}  // namespace pkb::plan
