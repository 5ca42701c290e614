// The race check: per byte, the last write and last read against the accessing agent's knowledge;
// per strong location, the releases a reader may acquire (a release sequence: a plain strong
// store starts one, atomics extend it); per block barrier, what the arrivals knew.
#include "harness/ptx/memory_model/race_detector.h"

#include <algorithm>

namespace pkb::ptx::mm {
namespace {

constexpr std::size_t kMaxFindings = 64;
constexpr std::size_t kMaxPending = 64;
constexpr std::size_t kMaxReleases = 256;
constexpr std::size_t kSeenCache = 8;

int fence_slot(Scope scope) { return scope == Scope::sys ? 2 : scope == Scope::gpu ? 1 : 0; }
Scope stamp_scope(const Stamp& stamp) { return static_cast<Scope>((stamp.bits >> kScopeShift) & 7); }

}  // namespace

Scope resolved_scope(Sem sem, Scope scope, bool atomic) {
  if (sem == Sem::volatile_ || sem == Sem::mmio) return Scope::sys;
  if (scope != Scope::none) return scope;
  return atomic || sem != Sem::weak ? Scope::gpu : Scope::none;
}

void RaceDetector::begin_call() {
  agents_.clear();
  agents_.emplace_back();
  agents_[0].known = std::make_shared<Knowledge>();
  shadow_.clear();
  sync_.clear();
  barriers_.clear();
  generations_.clear();
  launch_ends_.clear();
  findings_.clear();
  ctas_ = 0;
}

std::uint32_t RaceDetector::add_agent(const AgentPlace& place, std::shared_ptr<const Knowledge> start) {
  if (agents_.empty()) begin_call();
  Agent agent;
  agent.place = place;
  agent.known = start ? std::make_shared<Knowledge>(*start) : std::make_shared<Knowledge>();
  agents_.push_back(std::move(agent));
  return static_cast<std::uint32_t>(agents_.size() - 1);
}

bool RaceDetector::includes(Scope scope, std::uint32_t from, std::uint32_t other) const {
  const AgentPlace& a = agents_[from].place;
  const AgentPlace& b = agents_[other].place;
  switch (scope) {
    case Scope::sys: return true;
    case Scope::gpu: return a.rank == b.rank;
    case Scope::cluster: return a.rank == b.rank && a.cluster == b.cluster && a.cluster != 0;
    case Scope::cta: return a.rank == b.rank && a.cta == b.cta && a.cta != 0;
    case Scope::none: return false;
  }
  return false;
}

Knowledge& RaceDetector::mutable_known(Agent& agent) {
  if (agent.known.use_count() > 1) agent.known = std::make_shared<Knowledge>(*agent.known);
  return *agent.known;
}

RaceDetector::Release RaceDetector::snapshot(std::uint32_t agent, Scope scope) {
  Agent& a = agents_[agent];
  Release release{a.known, agent, a.epoch, scope, a.acquired_writes};
  ++a.epoch;  // what the agent does next is not part of this release
  return release;
}

void RaceDetector::learn(Agent& agent, const Release& release, Strength strength) {
  Knowledge& known = mutable_known(agent);
  if (release.known) known.join(*release.known, strength);
  known.raise_agent(release.agent, release.epoch, strength);
  if (strength == Strength::ordered) remember_all(agent, release.observed.get());
}

void RaceDetector::release_op(std::uint32_t agent, Scope scope, const void* instr) {
  Agent& a = agents_[agent];
  a.op_release = snapshot(agent, scope);
  a.op_instr = instr;
}

void RaceDetector::fence(std::uint32_t agent, Scope scope) {
  // Acquire: a strong read before this fence that saw a release completes an acquire pattern
  // when the release's first operation and this fence are morally strong.
  acquire_pending(agent, scope, nullptr);
  agents_[agent].fences[fence_slot(scope)] = snapshot(agent, scope);
}

void RaceDetector::acquire_pending(std::uint32_t agent, Scope scope, const std::uint64_t* address) {
  Agent& a = agents_[agent];
  auto kept = a.pending.begin();
  for (auto& [release, observed] : a.pending) {
    if ((!address || observed.address == *address) && includes(release.scope, release.agent, agent) &&
        includes(scope, agent, release.agent)) {
      learn(a, release, Strength::ordered);
      remember(a, observed);
    } else {
      *kept++ = {std::move(release), observed};
    }
  }
  a.pending.erase(kept, a.pending.end());
}

void RaceDetector::remember(Agent& agent, const Observed& observed) {
  if (observed.agent == 0) return;
  if (agent.acquired_writes)
    for (const Observed& seen : *agent.acquired_writes)
      if (seen.address == observed.address && seen.agent == observed.agent && seen.epoch == observed.epoch &&
          seen.pc == observed.pc)
        return;  // a spin reads the same write again and again
  auto list = agent.acquired_writes ? std::make_shared<ObservedList>(*agent.acquired_writes)
                                    : std::make_shared<ObservedList>();
  if (list->size() >= kMaxObserved) list->erase(list->begin());
  list->push_back(observed);
  agent.acquired_writes = std::move(list);
}

void RaceDetector::remember_all(Agent& agent, const ObservedList* observed) {
  if (!observed) return;
  for (const Observed& seen : *observed) remember(agent, seen);
}

Strength RaceDetector::known_at(const Agent& reader, const Stamp& event) const {
  const Agent& writer = agents_[event.agent];
  const Knowledge& known = *reader.known;
  Strength best = reaches(known.stream(writer.place.slot), writer.place.seq);
  if (best == Strength::ordered) return best;
  best = std::min(best, reaches(known.agent(event.agent), event.epoch));
  if (const Levels* generation = writer.place.cta ? known.cta(writer.place.cta) : nullptr)
    for (int k = 0; k < static_cast<int>(best) && k < kStrengths; ++k) {
      const std::uint32_t g = generation->at[static_cast<std::size_t>(k)];
      if (g >= 1 && g - 1 < writer.arrivals.size() && event.epoch <= writer.arrivals[g - 1]) {
        best = static_cast<Strength>(k);
        break;
      }
    }
  return best;
}

bool RaceDetector::morally_strong(const Stamp& a, const Stamp& b) const {
  if (!(a.bits & kStrong) || !(b.bits & kStrong)) return false;
  if ((a.bits & kMulticast) != (b.bits & kMulticast)) return false;  // different proxies
  if (a.size != b.size || a.offset != b.offset || a.size == 255) return false;
  return includes(stamp_scope(a), a.agent, b.agent) && includes(stamp_scope(b), b.agent, a.agent);
}

void RaceDetector::alias_fence(std::uint32_t agent) {
  Agent& a = agents_[agent];
  a.alias_fence = a.epoch++;
}

// Causality order between accesses through two virtual aliases of one location (a multicast and
// a unicast address) also needs a fence.proxy.alias: after the earlier access in its agent, or
// in the later access's agent before it (which learned of the earlier one through the order).
bool RaceDetector::alias_ordered(const Stamp& earlier, const Stamp& later) const {
  if (((earlier.bits ^ later.bits) & kMulticast) == 0) return true;
  return agents_[earlier.agent].alias_fence >= earlier.epoch || agents_[later.agent].alias_fence != 0;
}

bool RaceDetector::check(const Agent& reader, const Stamp& earlier, const Stamp& later, std::uint64_t address) {
  if (earlier.agent == 0) return false;
  if (earlier.agent == later.agent) {
    if (alias_ordered(earlier, later)) return false;
  } else if (morally_strong(earlier, later)) {
    return false;
  }
  Strength strength = earlier.agent == later.agent ? Strength::ordered : known_at(reader, earlier);
  if (strength != Strength::ordered && (earlier.bits & kWriteBit))
    for (const Observed& seen : reader.acquired_writes ? *reader.acquired_writes : ObservedList{})
      if (seen.agent == earlier.agent && seen.epoch == earlier.epoch && seen.pc == earlier.pc && address >= seen.address &&
          address < seen.address + seen.bytes)
        strength = Strength::ordered;
  // Ordered, but through two virtual aliases of the memory with no fence.proxy.alias: a race too.
  const bool alias = strength == Strength::ordered;
  if (alias && alias_ordered(earlier, later)) return false;
  if (alias) strength = Strength::none;
  // One finding per pair of instructions and strength: a loop over a buffer races once.
  for (const Finding& seen : findings_)
    if (seen.earlier.pc == earlier.pc && seen.later.pc == later.pc && seen.strength == strength && seen.alias == alias &&
        ((seen.earlier.bits ^ earlier.bits) & kWriteBit) == 0 && ((seen.later.bits ^ later.bits) & kWriteBit) == 0)
      return false;
  if (findings_.size() >= kMaxFindings) return false;
  findings_.push_back({strength, alias, earlier, later, address});
  return true;
}

const Finding* RaceDetector::access(std::uint32_t agent, std::uint64_t address, std::uint32_t bytes,
                                    const AccessOp& op) {
  Agent& a = agents_[agent];
  if (op.strong && op.read) observe(agent, address, bytes, op);
  Stamp stamp;
  stamp.agent = agent;
  // A release operation's own access belongs to the release: whoever acquires it knows it.
  stamp.epoch = op.instr && a.op_instr == op.instr ? a.op_release.epoch : a.epoch;
  stamp.pc = op.pc;
  stamp.lane = op.lane;
  stamp.bits = static_cast<std::uint8_t>((op.strong ? kStrong : 0) | static_cast<int>(op.scope) << kScopeShift |
                                         (op.multicast ? kMulticast : 0) | (op.rmw ? kRmw : 0) |
                                         (op.write ? kWriteBit : 0));
  stamp.size = static_cast<std::uint8_t>(std::min<std::uint32_t>(bytes, 255));
  const std::size_t before = findings_.size();
  // A strong read that reads a morally strong write observes it: the write is ordered before
  // the reader's later accesses to that location (observation order, part of causality order).
  if (op.strong && op.read)
    if (const Cell* first = shadow_.cell(address); first && first->write.agent != 0 && first->write.agent != agent) {
      Stamp probe = stamp;
      probe.offset = 0;
      if (morally_strong(first->write, probe))
        remember(a, {address, bytes, first->write.agent, first->write.epoch, first->write.pc});
    }
  for (std::uint32_t i = 0; i < bytes; ++i) {
    Cell* cell = shadow_.cell(address + i);
    if (!cell) break;
    stamp.offset = static_cast<std::uint8_t>(std::min<std::uint32_t>(i, 255));
    // The same agent's earlier access is ordered by program order (a multicast alias aside).
    const bool alias = op.multicast || ((cell->write.bits | cell->read.bits) & kMulticast);
    if (op.write) {
      if (cell->write.agent != agent || alias) check(a, cell->write, stamp, address + i);
      if (cell->read.agent != agent || alias) check(a, cell->read, stamp, address + i);
      cell->write = stamp;
      cell->read = Stamp{};
    } else {
      if (cell->write.agent != agent || alias) check(a, cell->write, stamp, address + i);
      cell->read = stamp;
    }
  }
  if (op.strong && op.write) publish(agent, address, bytes, op);
  return findings_.size() > before ? &findings_[before] : nullptr;
}

void RaceDetector::observe(std::uint32_t agent, std::uint64_t address, std::uint32_t bytes, const AccessOp& op) {
  Agent& a = agents_[agent];
  // An acquire operation on a location completes the acquire pattern of an earlier strong read of
  // it (PTX ISA 8.8: a strong read on M followed by an acquire operation on M).
  if (op.acquire) acquire_pending(agent, op.scope, &address);
  auto slot = sync_.find(address);
  if (slot == sync_.end()) return;
  const std::pair<std::uint64_t, std::uint32_t> key{address, slot->second.version};
  if (std::find(a.seen.begin(), a.seen.end(), key) != a.seen.end()) return;  // a spin: seen already
  if (a.seen.size() >= kSeenCache) a.seen.erase(a.seen.begin());
  a.seen.push_back(key);
  const bool same_bytes = slot->second.size == bytes;
  Observed observed{address, bytes, 0, 0, 0};
  if (const Cell* cell = shadow_.cell(address)) {
    observed.agent = cell->write.agent;
    observed.epoch = cell->write.epoch;
    observed.pc = cell->write.pc;
  }
  for (const Release& release : slot->second.releases) {
    if (release.agent == agent) continue;
    const bool writer_reaches = same_bytes && includes(release.scope, release.agent, agent);
    const bool reader_reaches = includes(op.scope, agent, release.agent);
    if (!writer_reaches || !reader_reaches) {
      learn(a, release, Strength::narrow);
    } else if (op.acquire) {
      learn(a, release, Strength::ordered);
      remember(a, observed);
    } else {
      learn(a, release, Strength::unacquired);
      if (a.pending.size() < kMaxPending) a.pending.push_back({release, observed});
    }
  }
}

void RaceDetector::publish(std::uint32_t agent, std::uint64_t address, std::uint32_t bytes, const AccessOp& op) {
  Agent& a = agents_[agent];
  std::vector<Release> carried;
  if (op.instr && a.op_instr == op.instr) carried.push_back(a.op_release);
  for (const Release& fence : a.fences)
    if (fence.agent != 0) carried.push_back(fence);
  auto found = sync_.find(address);
  if (!op.rmw && carried.empty() && found == sync_.end()) return;
  SyncSlot& slot = found != sync_.end() ? found->second : sync_[address];
  ++slot.version;
  if (slot.size != bytes) {
    slot.releases.clear();
  } else if (!op.rmw) {
    // A plain strong store ends other agents' release sequences on this location; the agent's own
    // earlier release stays a release pattern with this later strong write (PTX ISA 8.8).
    slot.releases.erase(std::remove_if(slot.releases.begin(), slot.releases.end(),
                                       [&](const Release& r) { return r.agent != agent; }),
                        slot.releases.end());
  }
  if (slot.releases.empty() && carried.empty()) {
    sync_.erase(address);
    return;
  }
  slot.size = static_cast<std::uint8_t>(std::min<std::uint32_t>(bytes, 255));
  for (Release& release : carried) {
    // An agent's newer release at the same scope covers its older one.
    auto same = std::find_if(slot.releases.begin(), slot.releases.end(), [&](const Release& r) {
      return r.agent == release.agent && r.scope == release.scope;
    });
    if (same != slot.releases.end()) *same = std::move(release);
    else if (slot.releases.size() < kMaxReleases) slot.releases.push_back(std::move(release));
  }
}

}  // namespace pkb::ptx::mm
