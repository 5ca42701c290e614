// RankResolver (internal to harness/plan): evaluates a ParsedPlan for one rank. Buffers are
// resolved in plan_resolve.cpp, steps in plan_resolve_steps.cpp; both report through fail(),
// which prefixes the JSON location and suffixes the rank.
#pragma once

#include <string>

#include "harness/plan/plan_parsed.h"
#include "harness/plan/plan_resolve.h"

namespace pkb::plan {

class RankResolver {
 public:
  RankResolver(const ParsedPlan& plan, const PlanTarget& target, int rank);
  ResolvedPlan resolve();

  [[noreturn]] void fail(const std::string& where, const std::string& why) const;
  std::int64_t eval(const ShapeExpr& expr, const std::string& where) const;
  std::int64_t eval_or(const ExprField& field, std::int64_t fallback) const;
  /// ", and group_rank(G) and group_size(G) for the problem's groups G (tp, fsdp)", or "".
  std::string group_names_hint() const;
  /// The index of buffer `name`, or a PlanError listing the known names.
  int buffer(const std::string& name, const std::string& where) const;
  /// Fails when `index` is a problem input: inputs are read-only.
  void require_writable(int index, const std::string& where) const;
  /// Fails unless [offset, offset + count) lies inside buffer `index` on rank `owner`'s size.
  void require_range(int index, std::uint64_t offset, std::uint64_t count, const std::string& where) const;
  const ResolvedBuffer& buf(int index) const { return out_.buffers[index]; }
  int rank() const { return rank_; }
  int world() const { return target_.world; }
  const PlanTarget& target() const { return target_; }

 private:
  void resolve_buffers();
  ResolvedStep resolve_step(const ParsedStep& step);
  KernelStep resolve_kernel(const ParsedStep& step);
  void resolve_kernel_args(const ParsedStep& step, KernelStep& kernel);
  void check_param_type(const ResolvedArg& arg, const compile::KernelParam& param, std::size_t index,
                        const std::string& kernel, const std::string& where) const;
  ResolvedArg resolve_arg(const ParsedArg& arg, const std::string& where);
  void resolve_copy(const ParsedStep& step, CopyStep& copy);
  void resolve_gemm(const ParsedStep& step, GemmStep& gemm);
  void resolve_collective(const ParsedStep& step, CollectiveStep& collective);
  /// The group a collective step names: its index, this rank's instance and the group's size.
  void resolve_group(const ParsedStep& step, CollectiveStep& collective, int& group_rank,
                     int& group_size) const;
  void check_in_place(const ParsedStep& step, const CollectiveStep& collective,
                      std::uint64_t send_count, std::uint64_t recv_count, int group_rank) const;
  double float_scalar(const ParsedArg& arg, const std::string& where) const;

  const ParsedPlan& plan_;
  const PlanTarget& target_;
  int rank_;
  problem::ExprEnv env_;
  ResolvedPlan out_;
};

/// Peer copies read or write another rank's buffer: checked against that rank's size.
void check_peer_ranges(const std::vector<ResolvedPlan>& plans);

/// What only all ranks' plans together show (plan_cross_rank.cpp): collectives with one count and
/// root on every rank, every send matched by a recv in its group, every output written somewhere.
void check_cross_rank(const std::vector<ResolvedPlan>& plans);

}  // namespace pkb::plan
