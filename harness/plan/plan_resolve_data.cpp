// RankResolver's data steps: copy (also from or to a peer's symmetric buffer), gemm (row-major,
// bounds from the leading dimensions) and collective (NCCL semantics for the count of each side,
// over the ranks of the group a collective names).
#include "harness/plan/plan_resolver.h"
#include "src/common/did_you_mean.h"
#include "src/problem/groups.h"

namespace pkb::plan {
namespace {

std::uint64_t non_negative(RankResolver& r, const ExprField& field, std::int64_t fallback) {
  const std::int64_t value = r.eval_or(field, fallback);
  if (value < 0) r.fail(field.where, "expected a value of at least 0, got " + std::to_string(value));
  return static_cast<std::uint64_t>(value);
}

int rank_field(RankResolver& r, const ExprField& field, int fallback) {
  const std::int64_t value = r.eval_or(field, fallback);
  if (value < 0 || value >= r.world())
    r.fail(field.where, "expected a rank in 0.." + std::to_string(r.world() - 1) + ", got " + std::to_string(value));
  return static_cast<int>(value);
}

// A collective's root or peer (0 when absent): a rank of the group it names, `of` " of group 'tp'".
int rank_field(RankResolver& r, const ExprField& field, int ranks, const std::string& of) {
  const std::int64_t value = r.eval_or(field, 0);
  if (value < 0 || value >= ranks)
    r.fail(field.where, "expected a rank" + of + " in 0.." + std::to_string(ranks - 1) + ", got " +
                            std::to_string(value));
  return static_cast<int>(value);
}

bool gemm_dtype(DType dtype) { return dtype == DType::bf16 || dtype == DType::fp16 || dtype == DType::fp32; }

}  // namespace

void RankResolver::resolve_copy(const ParsedStep& step, CopyStep& copy) {
  copy.dst = buffer(step.dst, step.where + ".dst");
  copy.src = buffer(step.src, step.where + ".src");
  require_writable(copy.dst, step.where + ".dst");
  if (dtype_size(buf(copy.dst).dtype) != dtype_size(buf(copy.src).dtype))
    fail(step.where, "copy from '" + step.src + "' (" + std::string(dtype_name(buf(copy.src).dtype)) + ") to '" +
                         step.dst + "' (" + std::string(dtype_name(buf(copy.dst).dtype)) +
                         "): the element sizes differ");
  copy.count = non_negative(*this, step.count, 0);
  copy.dst_offset = non_negative(*this, step.dst_offset, 0);
  copy.src_offset = non_negative(*this, step.src_offset, 0);
  copy.dst_rank = rank_field(*this, step.dst_rank, rank());
  copy.src_rank = rank_field(*this, step.src_rank, rank());
  if (copy.dst_rank != rank() && buf(copy.dst).kind == BufferKind::local)
    fail(step.dst_rank.where, "'" + step.dst + "' is local: only symmetric buffers are reachable on another rank");
  if (copy.src_rank != rank() && buf(copy.src).kind == BufferKind::local)
    fail(step.src_rank.where, "'" + step.src + "' is local: only symmetric buffers are reachable on another rank");
  if (copy.dst_rank == rank()) require_range(copy.dst, copy.dst_offset, copy.count, step.where + ".dst");
  if (copy.src_rank == rank()) require_range(copy.src, copy.src_offset, copy.count, step.where + ".src");
}

void RankResolver::resolve_gemm(const ParsedStep& step, GemmStep& gemm) {
  gemm.a = buffer(step.a, step.where + ".a");
  gemm.b = buffer(step.b, step.where + ".b");
  gemm.c = buffer(step.c, step.where + ".c");
  require_writable(gemm.c, step.where + ".c");
  const DType ab = buf(gemm.a).dtype;
  if (!gemm_dtype(ab) || buf(gemm.b).dtype != ab)
    fail(step.where, "gemm needs a and b of one type among bf16, fp16, fp32, got " +
                         std::string(dtype_name(ab)) + " and " + std::string(dtype_name(buf(gemm.b).dtype)));
  const DType c = buf(gemm.c).dtype;
  if (c != ab && c != DType::fp32)
    fail(step.where + ".c", "c must be " + std::string(dtype_name(ab)) + " or fp32, got " + std::string(dtype_name(c)));
  gemm.m = static_cast<std::int64_t>(non_negative(*this, step.m, 0));
  gemm.n = static_cast<std::int64_t>(non_negative(*this, step.n, 0));
  gemm.k = static_cast<std::int64_t>(non_negative(*this, step.k, 0));
  gemm.trans_a = step.trans_a;
  gemm.trans_b = step.trans_b;
  gemm.alpha = step.alpha;
  gemm.beta = step.beta;
  // Row-major: A is [m, k] ([k, m] when transposed), B is [k, n] ([n, k]), C is [m, n].
  struct Operand {
    int buffer;
    const ExprField& ld_field;
    const ExprField& offset_field;
    std::int64_t rows, cols;
    std::int64_t* ld;
    std::uint64_t* offset;
    const char* name;
  };
  const Operand operands[3] = {
      {gemm.a, step.lda, step.a_offset, gemm.trans_a ? gemm.k : gemm.m, gemm.trans_a ? gemm.m : gemm.k, &gemm.lda,
       &gemm.a_offset, "a"},
      {gemm.b, step.ldb, step.b_offset, gemm.trans_b ? gemm.n : gemm.k, gemm.trans_b ? gemm.k : gemm.n, &gemm.ldb,
       &gemm.b_offset, "b"},
      {gemm.c, step.ldc, step.c_offset, gemm.m, gemm.n, &gemm.ldc, &gemm.c_offset, "c"},
  };
  for (const auto& op : operands) {
    *op.ld = static_cast<std::int64_t>(non_negative(*this, op.ld_field, std::max<std::int64_t>(op.cols, 1)));
    if (*op.ld < op.cols)
      fail(op.ld_field.where, "the leading dimension " + std::to_string(*op.ld) + " is below the row length " +
                                  std::to_string(op.cols));
    *op.offset = non_negative(*this, op.offset_field, 0);
    const std::uint64_t span =
        op.rows == 0 || op.cols == 0 ? 0 : std::uint64_t(op.rows - 1) * std::uint64_t(*op.ld) + std::uint64_t(op.cols);
    require_range(op.buffer, *op.offset, span, step.where + "." + op.name);
  }
}

void RankResolver::resolve_group(const ParsedStep& step, CollectiveStep& collective,
                                 int& group_rank, int& group_size) const {
  group_rank = rank();
  group_size = world();
  if (step.group.empty()) return;
  const auto& groups = target_.spec->groups;
  std::vector<std::string> names;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    names.push_back(groups[g].name);
    if (groups[g].name == step.group) collective.group = static_cast<int>(g);
  }
  if (collective.group < 0) {
    std::string known;
    for (const auto& name : names) known += (known.empty() ? "" : ", ") + name;
    const auto close = closest_match(step.group, names);
    fail(step.group_where,
         "unknown group '" + step.group + "'" + (close ? ", did you mean '" + *close + "'?" : "") +
             (known.empty() ? " (the problem has no groups)" : " (groups: " + known + ")"));
  }
  const auto& group = groups[static_cast<std::size_t>(collective.group)];
  try {
    const int size = problem::group_size(group, world(), target_.dims);
    const problem::GroupInstance instance =
        problem::group_instance(world(), rank(), size, group.layout);
    collective.members = instance.members;
    group_rank = instance.rank;
    group_size = size;
  } catch (const Error& e) {
    fail(step.group_where, "group '" + step.group + "': " + e.what());
  }
}

void RankResolver::resolve_collective(const ParsedStep& step, CollectiveStep& collective) {
  collective.kind = step.collective;
  collective.reduce = step.reduce;
  collective.count = non_negative(*this, step.count, 0);
  collective.send_offset = non_negative(*this, step.src_offset, 0);
  collective.recv_offset = non_negative(*this, step.dst_offset, 0);
  int group_rank = 0, group_size = 0;
  resolve_group(step, collective, group_rank, group_size);
  const std::string group_of = step.group.empty() ? "" : " of group '" + step.group + "'";
  collective.root = rank_field(*this, step.root, group_size, group_of);
  collective.peer = rank_field(*this, step.peer, group_size, group_of);
  if (!step.send.empty()) collective.send = buffer(step.send, step.where + ".send");
  if (!step.recv.empty()) {
    collective.recv = buffer(step.recv, step.where + ".recv");
    require_writable(collective.recv, step.where + ".recv");
  }
  if (collective.send >= 0 && collective.recv >= 0 && buf(collective.send).dtype != buf(collective.recv).dtype)
    fail(step.where, "send '" + step.send + "' and recv '" + step.recv + "' have different types");
  const bool paired = collective.kind == CollectiveKind::send || collective.kind == CollectiveKind::recv;
  if (paired && collective.peer == group_rank)
    fail(step.peer.where, "a rank cannot send to or receive from itself");
  // Elements each side holds, in NCCL's terms (over the group's ranks when it names one).
  const std::uint64_t count = collective.count, ranks = static_cast<std::uint64_t>(group_size);
  std::uint64_t send_count = count, recv_count = count;
  switch (collective.kind) {
    case CollectiveKind::all_gather: recv_count = count * ranks; break;
    case CollectiveKind::reduce_scatter: send_count = count * ranks; break;
    case CollectiveKind::all_to_all: send_count = recv_count = count * ranks; break;
    default: break;
  }
  // broadcast reads send on the root only; reduce writes recv on the root only.
  const bool reads = collective.kind != CollectiveKind::broadcast || collective.root == group_rank;
  const bool writes = collective.kind != CollectiveKind::reduce || collective.root == group_rank;
  if (collective.send >= 0 && reads) require_range(collective.send, collective.send_offset, send_count, step.where + ".send");
  if (collective.recv >= 0 && writes) require_range(collective.recv, collective.recv_offset, recv_count, step.where + ".recv");
  if (collective.send >= 0 && collective.send == collective.recv)
    check_in_place(step, collective, send_count, recv_count, group_rank);
}

// send and recv in one buffer: NCCL defines in-place operation only where the send range is exactly
// the part of recv that this rank contributes; any other overlap reads data as it is overwritten.
void RankResolver::check_in_place(const ParsedStep& step, const CollectiveStep& collective,
                                  std::uint64_t send_count, std::uint64_t recv_count,
                                  int group_rank) const {
  const std::uint64_t send_at = collective.send_offset, recv_at = collective.recv_offset;
  if (send_at + send_count <= recv_at || recv_at + recv_count <= send_at) return;  // disjoint
  const std::uint64_t own = static_cast<std::uint64_t>(group_rank) * collective.count;
  const std::string rank_name = step.group.empty() ? "rank" : problem::group_rank_name(step.group);
  std::string rule;
  switch (collective.kind) {
    case CollectiveKind::all_reduce:
    case CollectiveKind::reduce:
    case CollectiveKind::broadcast:
      if (send_at == recv_at) return;
      rule = "in place, send_offset must equal recv_offset";
      break;
    case CollectiveKind::all_gather:
      if (send_at == recv_at + own) return;
      rule = "in place, send_offset must be recv_offset + " + rank_name + " * count";
      break;
    case CollectiveKind::reduce_scatter:
      if (recv_at == send_at + own) return;
      rule = "in place, recv_offset must be send_offset + " + rank_name + " * count";
      break;
    default: rule = std::string(collective_kind_name(collective.kind)) + " cannot run in place"; break;
  }
  fail(step.where, "send elements [" + std::to_string(send_at) + ", " + std::to_string(send_at + send_count) +
                       ") and recv elements [" + std::to_string(recv_at) + ", " + std::to_string(recv_at + recv_count) +
                       ") of '" + step.send + "' overlap (" + rule + ")");
}

void check_peer_ranges(const std::vector<ResolvedPlan>& plans) {
  for (const auto& plan : plans)
    for (const auto& step : plan.steps) {
      if (step.op != StepOp::copy) continue;
      const auto& copy = step.copy;
      const std::string where = "plan: steps[" + std::to_string(step.index) + "]";
      auto check = [&](int buffer, int owner, std::uint64_t offset, const char* side) {
        if (owner == plan.rank) return;
        const auto& remote = plans[owner].buffers[buffer];
        if (offset > remote.numel || copy.count > remote.numel - offset)
          throw PlanError(where + "." + side + ": elements [" + std::to_string(offset) + ", " +
                          std::to_string(offset + copy.count) + ") are outside '" + remote.name + "' on rank " +
                          std::to_string(owner) + ", which holds " + std::to_string(remote.numel) + " (rank " +
                          std::to_string(plan.rank) + " of " + std::to_string(plans.size()) + ")");
      };
      check(copy.src, copy.src_rank, copy.src_offset, "src");
      check(copy.dst, copy.dst_rank, copy.dst_offset, "dst");
    }
}

}  // namespace pkb::plan
