// check_cross_rank: the checks that need every rank's resolved plan at once. A collective whose
// count or root differs between the ranks of its communicator (the world, or one instance of the
// group it names), or a send nobody receives, would hang on a GPU; an output that no step can
// write would only show up as poison after a full GPU run.
#include <map>
#include <set>
#include <tuple>

#include "harness/plan/plan_resolver.h"

namespace pkb::plan {
namespace {

std::string step_at(const ResolvedStep& step) { return "plan: steps[" + std::to_string(step.index) + "]"; }

std::string rank_text(int rank) { return "rank " + std::to_string(rank); }

// The rank whose call the others of its instance must match: the instance's first member (rank 0
// for the world), so each message names two ranks that share a communicator.
int leader_of(const CollectiveStep& c) { return c.members.empty() ? 0 : c.members[0]; }

std::string same_text(const ResolvedPlan& plan, const CollectiveStep& c) {
  return c.group < 0 ? "every rank"
                     : "every rank of an instance of group '" + plan.group_names.at(c.group) + "'";
}

void check_collective_agreement(const std::vector<ResolvedPlan>& plans, std::size_t s) {
  const bool rooted = plans[0].steps[s].collective.kind == CollectiveKind::broadcast ||
                      plans[0].steps[s].collective.kind == CollectiveKind::reduce;
  for (const auto& plan : plans) {
    const CollectiveStep& c = plan.steps[s].collective;
    const int leader = leader_of(c);
    const ResolvedStep& first = plans[leader].steps[s];
    const CollectiveStep& c0 = first.collective;
    const std::string kind(collective_kind_name(c.kind));
    if (c.count != c0.count)
      throw PlanError(step_at(first) + ": the " + kind + " count is " + std::to_string(c0.count) +
                      " on " + rank_text(leader) + " but " + std::to_string(c.count) + " on " +
                      rank_text(plan.rank) + " (" + same_text(plan, c) +
                      " must issue a collective with the same count)");
    if (rooted && c.root != c0.root)
      throw PlanError(step_at(first) + ": the " + kind + " root is " + std::to_string(c0.root) +
                      " on " + rank_text(leader) + " but " + std::to_string(c.root) + " on " +
                      rank_text(plan.rank) + " (" + same_text(plan, c) +
                      " must name the same root)");
  }
}

// One send or recv: its step, count and element size, in issue order per (group, from, to).
struct Transfer {
  const ResolvedStep* step;
  std::uint64_t count;
  std::size_t element_bytes;
};

std::string group_text(const std::vector<ResolvedPlan>& plans, std::size_t first, std::size_t last) {
  const int a = plans[0].steps[first].index, b = plans[0].steps[last].index;
  return a == b ? "in its group (steps[" + std::to_string(a) + "] alone)"
                : "in its group (steps[" + std::to_string(a) + "] to steps[" + std::to_string(b) + "])";
}

// A send and a recv meet only on one communicator: the world's (group -1) or one group's.
struct Link {
  int group, from, to;
  bool operator<(const Link& other) const {
    return std::tie(group, from, to) < std::tie(other.group, other.from, other.to);
  }
};

// Steps [first, last] are one group of sends and recvs: NCCL matches the n-th send from a to b
// with the n-th recv on b from a on the same communicator, so each link's lists must agree in
// length and counts. Peers are group ranks in a grouped step; links hold world ranks.
void check_point_to_point_group(const std::vector<ResolvedPlan>& plans, std::size_t first, std::size_t last) {
  std::map<Link, std::vector<Transfer>> sends, recvs;
  for (const auto& plan : plans)
    for (std::size_t s = first; s <= last; ++s) {
      const ResolvedStep& step = plan.steps[s];
      const CollectiveStep& c = step.collective;
      const int buffer = c.kind == CollectiveKind::send ? c.send : c.recv;
      const Transfer transfer{&step, c.count, dtype_size(plan.buffers[buffer].dtype)};
      const int peer = c.members.empty() ? c.peer : c.members.at(c.peer);
      if (c.kind == CollectiveKind::send)
        sends[{c.group, plan.rank, peer}].push_back(transfer);
      else
        recvs[{c.group, peer, plan.rank}].push_back(transfer);
    }
  const std::string hint = " (consecutive send and recv steps form one group, and each send needs a recv of the "
                           "same size on its peer in that group)";
  auto over = [&](const Link& link) {
    return link.group < 0 ? std::string()
                          : " over group '" + plans[0].group_names.at(link.group) + "'";
  };
  for (const auto& [link, list] : sends) {
    const auto& matching = recvs[link];
    for (std::size_t n = 0; n < list.size(); ++n) {
      const Transfer& send = list[n];
      if (n >= matching.size())
        throw PlanError(step_at(*send.step) + ": " + rank_text(link.from) + " sends " +
                        std::to_string(send.count) + " elements to " + rank_text(link.to) +
                        over(link) + ", which has no matching recv from " + rank_text(link.from) +
                        over(link) + " " + group_text(plans, first, last) + hint);
      const Transfer& recv = matching[n];
      if (send.count * send.element_bytes != recv.count * recv.element_bytes)
        throw PlanError(step_at(*send.step) + ": " + rank_text(link.from) + " sends " +
                        std::to_string(send.count) + " elements to " + rank_text(link.to) +
                        over(link) + ", but steps[" + std::to_string(recv.step->index) + "] on " +
                        rank_text(link.to) + " receives " + std::to_string(recv.count) + hint);
    }
  }
  for (const auto& [link, list] : recvs)
    if (list.size() > sends[link].size()) {
      const Transfer& recv = list[sends[link].size()];
      throw PlanError(step_at(*recv.step) + ": " + rank_text(link.to) + " receives " +
                      std::to_string(recv.count) + " elements from " + rank_text(link.from) +
                      over(link) + ", which sends nothing more to " + rank_text(link.to) +
                      over(link) + " " + group_text(plans, first, last) + hint);
    }
}

// Where output `buffer` of rank `owner` can be written: its own steps that name it, or any rank's
// peers()/multicast() argument or peer copy. Inouts start as their input and are left out.
bool output_reachable(const std::vector<ResolvedPlan>& plans, int buffer, int owner) {
  for (const auto& plan : plans)
    for (const auto& step : plan.steps) {
      const bool own = plan.rank == owner;
      switch (step.op) {
        case StepOp::kernel:
          for (const auto& arg : step.kernel.args)
            if (arg.buffer == buffer && (own || arg.kind == ArgKind::peers || arg.kind == ArgKind::multicast))
              return true;
          break;
        case StepOp::memset:
          if (own && step.memset.buffer == buffer) return true;
          break;
        case StepOp::copy:
          if (step.copy.dst == buffer && step.copy.dst_rank == owner) return true;
          break;
        case StepOp::gemm:
          if (own && step.gemm.c == buffer) return true;
          break;
        case StepOp::collective:
          if (own && step.collective.recv == buffer) return true;
          break;
        case StepOp::barrier: break;
      }
    }
  return false;
}

void check_outputs_written(const std::vector<ResolvedPlan>& plans) {
  const auto& buffers = plans[0].buffers;
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    if (buffers[b].role != BufferRole::output || buffers[b].inout) continue;
    for (const auto& plan : plans)
      if (plan.buffers[b].numel > 0 && !output_reachable(plans, static_cast<int>(b), plan.rank))
        throw PlanError("plan: outputs: '" + buffers[b].name + "' is never written on " + rank_text(plan.rank) +
                        ": no step names it (a kernel argument, memset, copy, gemm or collective recv of that "
                        "rank, or peers(" + buffers[b].name + "), multicast(" + buffers[b].name +
                        ") or a copy to it from any rank)");
  }
}

}  // namespace

bool is_point_to_point(const ResolvedStep& step) {
  return step.op == StepOp::collective &&
         (step.collective.kind == CollectiveKind::send || step.collective.kind == CollectiveKind::recv);
}

void check_cross_rank(const std::vector<ResolvedPlan>& plans) {
  const std::size_t count = plans[0].steps.size();
  for (std::size_t s = 0; s < count; ++s) {
    const ResolvedStep& step = plans[0].steps[s];
    if (step.op != StepOp::collective) continue;
    if (!is_point_to_point(step)) {
      check_collective_agreement(plans, s);
      continue;
    }
    std::size_t last = s;
    while (last + 1 < count && is_point_to_point(plans[0].steps[last + 1])) ++last;
    check_point_to_point_group(plans, s, last);
    s = last;
  }
  check_outputs_written(plans);
}

}  // namespace pkb::plan
