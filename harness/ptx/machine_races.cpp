// The machine's side of the memory model (memory_model/): turning it on, a call's start, plan
// steps as agents, and a finding turned into the message a user reads: both accesses (kernel,
// rank, block, thread, read or write, instruction and source line), the buffer and element, why
// nothing orders them, and what would.
#include <cstdio>

#include "harness/ptx/exec_state.h"

namespace pkb::ptx {
namespace {

const char* scope_name(Scope scope) {
  switch (scope) {
    case Scope::cta: return "block (.cta)";
    case Scope::cluster: return "cluster (.cluster)";
    case Scope::gpu: return "GPU (.gpu)";
    case Scope::sys: return "system (.sys)";
    case Scope::none: break;
  }
  return "no";
}

}  // namespace

void Machine::set_memory_model(MemoryModel model, bool fault_on_race) {
  races_ = model == MemoryModel::ptx ? std::make_unique<mm::RaceDetector>() : nullptr;
  fault_on_race_ = fault_on_race;
  begin_call();
}

void Machine::begin_call() {
  race_findings_.clear();
  sites_.clear();
  clusters_.clear();
  if (!races_) return;
  races_->begin_call();
  sites_.emplace_back();  // agent 0: before the call
}

std::shared_ptr<mm::Knowledge> Machine::take_launch_knowledge(std::uint64_t launch) {
  return races_ ? races_->take_launch_knowledge(launch) : nullptr;
}

std::uint32_t Machine::add_step_agent(const LaunchOrder& order, int rank, const std::string& what) {
  if (!races_) return 0;
  const std::uint32_t agent = races_->add_agent({rank, 0, 0, order.slot, order.seq}, order.before);
  AgentSite site;
  site.step = what + " on rank " + std::to_string(rank);
  sites_.push_back(std::move(site));
  return agent;
}

bool Machine::step_access(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes, bool write) {
  if (!races_ || agent == 0 || bytes == 0) return true;
  mm::AccessOp op;
  op.write = write;
  op.read = !write;
  // Steps move whole buffers: checked in pieces of at most 255 bytes (a stamp's size).
  for (std::uint64_t at = 0; at < bytes; at += 255) {
    const auto piece = static_cast<std::uint32_t>(std::min<std::uint64_t>(255, bytes - at));
    if (const mm::Finding* finding = races_->access(agent, address + at, piece, op)) {
      report_race(*finding, -1);
      if (finding->strength != mm::Strength::unacquired && fault_on_race_) return false;
    }
  }
  return true;
}

std::string Machine::describe_access(const mm::Stamp& stamp) const {
  const bool write = stamp.bits & mm::kWriteBit;
  const char* what = (stamp.bits & mm::kRmw) ? "an atomic" : write ? "a write" : "a read";
  if (stamp.agent >= sites_.size()) return what;
  const AgentSite& site = sites_[stamp.agent];
  if (!site.step.empty()) return std::string(what) + " by the plan step " + site.step;
  const mm::AgentPlace& place = races_->place(stamp.agent);
  const std::uint64_t thread = static_cast<std::uint64_t>(site.warp) * kWarpLanes + stamp.lane;
  const Dim3& dim = site.block_dim;
  const Instr& instr = site.program->code[stamp.pc];
  const std::string line = site.program->source_line(instr);
  return std::string(what) + " by kernel " + site.program->functions[static_cast<std::size_t>(site.function)].name +
         ", rank " + std::to_string(place.rank) + ", block (" + std::to_string(site.block.x) + "," +
         std::to_string(site.block.y) + "," + std::to_string(site.block.z) + "), thread (" +
         std::to_string(thread % dim.x) + "," + std::to_string(thread / dim.x % dim.y) + "," +
         std::to_string(thread / (std::uint64_t{dim.x} * dim.y)) + "), `" + std::string(instr.text) + "` at " +
         (line.empty() ? "" : line + ", ") + "PTX line " + std::to_string(instr.line);
}

std::string Machine::describe_race(const mm::Finding& finding) const {
  const mm::Stamp& first = finding.earlier;
  const mm::Stamp& second = finding.later;
  // The memory: a buffer and element, or a block's shared memory.
  std::string memory;
  const std::uint64_t base = finding.address - (second.offset == 255 ? 0 : second.offset);
  if (const Region* region = memory_.find(base, 1)) {
    const std::uint64_t offset = base - region->begin;
    const std::uint64_t size = second.size && second.size != 255 ? second.size : 1;
    memory = region->name + (region->rank >= 0 ? " of rank " + std::to_string(region->rank) : "") + ", byte " +
             std::to_string(offset) + (size > 1 ? " (element " + std::to_string(offset / size) + " of " +
                                                      std::to_string(size) + "-byte accesses)"
                                                : "");
  } else {
    memory = "shared memory of a block";
  }
  const mm::AgentPlace& a = races_->place(first.agent);
  const mm::AgentPlace& b = races_->place(second.agent);
  const bool ranks = a.rank != b.rank;
  const bool step = a.cta == 0 || b.cta == 0;  // a plan step (memset, copy, gemm, collective)
  const bool blocks = !ranks && !step && a.cta != b.cta;
  const std::string distance = ranks    ? "rank " + std::to_string(a.rank) + " and rank " + std::to_string(b.rank)
                               : step   ? "a plan step and a kernel of rank " + std::to_string(a.rank)
                               : blocks ? "two blocks of rank " + std::to_string(a.rank)
                                        : "two warps of one block";
  std::string why, fix;
  const auto scope_of = [](const mm::Stamp& s) { return static_cast<Scope>((s.bits >> mm::kScopeShift) & 7); };
  if (finding.alias) {
    why = "the memory is reached through its multicast address and its unicast address, and no fence.proxy.alias "
          "orders the two (the PTX ISA asks for one between accesses through different virtual aliases)";
    fix = "pkb::barrier_block and pkb::barrier_grid include one; otherwise call pkb::fence_proxy_alias() between "
          "the last access through one address and the first through the other";
  } else if (finding.strength == mm::Strength::unacquired) {
    why = "the reader saw the writer's release with a relaxed or volatile load but never acquired it, so the PTX "
          "memory model does not order the write before the read";
    fix = ranks ? "poll with ld.acquire.sys (pkb::ld_acquire_sys, pkb::wait_until_ge) or put __threadfence_system() "
                  "after the poll"
                : "poll with ld.acquire.gpu or put __threadfence() after the poll";
  } else {
    const bool strong_pair = (first.bits & mm::kStrong) && (second.bits & mm::kStrong);
    if (finding.strength == mm::Strength::narrow || strong_pair) {
      const Scope narrow = strong_pair ? std::min(scope_of(first), scope_of(second)) : Scope::none;
      why = std::string("the release or acquire that links them is scoped too narrowly") +
            (strong_pair ? std::string(" (") + scope_name(narrow) + " scope)" : "") + ": its scope does not include " +
            (ranks ? "the other rank's GPU" : "the other block");
    } else {
      why = "nothing orders the write before the other access: no release after the write (a fence, st.release or "
            "a barrier) is acquired by the other thread before its access";
    }
    fix = ranks ? "use a system-scope release and acquire: pkb::st_release_sys or __threadfence_system() before "
                  "the flag store, pkb::ld_acquire_sys (pkb::wait_until_ge) to read the flag, or pkb::barrier_block"
          : step ? "order the step and the kernel: the same stream, or an event the later one waits for"
          : blocks ? std::string("release with __threadfence() (or st.release.gpu) before the flag and read the flag "
                                 "with ld.acquire.gpu (or __threadfence() after reading it)") +
                         (finding.strength == mm::Strength::narrow ? "; .cta scope does not reach another block" : "")
                   : "put __syncthreads() between them";
  }
  const char* kind = finding.strength == mm::Strength::unacquired ? "consumer without acquire" : "data race";
  return std::string(kind) + " under the PTX memory model between " + distance + " on " + memory + ": " +
         describe_access(second) + ", and earlier " + describe_access(first) + "; " + why + "; " + fix;
}

void Machine::report_race(const mm::Finding& finding, int lane) {
  const bool warning = finding.strength == mm::Strength::unacquired;
  std::string message = describe_race(finding);
  race_findings_.push_back({warning, message, std::to_string(finding.earlier.pc) + ":" + std::to_string(finding.later.pc)});
  if (warning || !fault_on_race_) return;
  if (lane >= 0) throw LaneFault{lane, Fault::Kind::race, std::move(message), true};
}

}  // namespace pkb::ptx
