// The PTX memory model's data-race check for the simulated node (PTX ISA "Memory Consistency
// Model"): two conflicting accesses race unless they are morally strong (both strong, each one's
// scope including the other's thread, the same bytes) or ordered by causality order. Ordering
// comes from program order (within an agent: a warp, whose lanes are not told apart), bar.sync
// (a block's warps), release and acquire patterns that are morally strong (st/atom/red .release,
// fence.acq_rel / fence.sc / membar then a strong write; ld/atom .acquire, or a strong read then
// a fence), stream order, events and the plan's barriers and collectives (the simulated device
// passes each launch what precedes it). Scope instances: .cta the block, .cluster the cluster,
// .gpu one rank (a peer GPU is never inside it), .sys the node. A race is a Finding at a Strength:
// `unacquired` (the reader's strong poll saw the writer's release but never acquired it: a
// warning), `narrow` (a release or acquire whose scope leaves the other side out) or `none`
// (nothing orders them): both errors. README.md says what is and is not checked.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "harness/ptx/memory_model/knowledge.h"
#include "harness/ptx/memory_model/shadow.h"
#include "harness/ptx/ptx_types.h"

namespace pkb::ptx::mm {

/// Where an agent runs: its rank, block and cluster (unique in the call; 0 for plan steps), and
/// the stream work item it belongs to (slot = rank * kStreamsPerRank + stream, seq from 1).
struct AgentPlace {
  int rank = 0;
  std::uint32_t cta = 0;
  std::uint32_t cluster = 0;
  std::uint32_t slot = 0;
  std::uint32_t seq = 0;
};
constexpr std::uint32_t kStreamsPerRank = 16;

/// One access of one lane. `scope` is resolved (volatile: sys; an atomic without one: gpu).
struct AccessOp {
  bool write = false;    // a store, or the write of an atomic
  bool read = false;     // a load, or the read of an atomic (not of red)
  bool strong = false;
  bool acquire = false;  // ld.acquire, atom.acquire / .acq_rel
  bool rmw = false;      // atom / red: continues the location's release sequence
  bool multicast = false;
  Scope scope = Scope::none;
  std::uint32_t pc = 0;
  std::uint8_t lane = 0;
  const void* instr = nullptr;  // matches release_op's instruction for its own writes
};

/// A race: `earlier` (from the shadow) and `later` (the access that found it) at `address`.
struct Finding {
  Strength strength = Strength::none;
  bool alias = false;  // ordered, but one side went through the multicast address: no fence.proxy.alias
  Stamp earlier, later;
  std::uint64_t address = 0;
};

class RaceDetector {
 public:
  /// A new call: the shadow, the agents and every release are forgotten.
  void begin_call();
  std::uint32_t new_cta() { return ++ctas_; }
  /// A warp or plan step starting with `start` known (what precedes its launch or step).
  std::uint32_t add_agent(const AgentPlace& place, std::shared_ptr<const Knowledge> start);
  const AgentPlace& place(std::uint32_t agent) const { return agents_[agent].place; }

  /// st / atom / red with .release or .acq_rel: its writes carry what the agent knows now.
  void release_op(std::uint32_t agent, Scope scope, const void* instr);
  /// fence.acq_rel / fence.sc / membar: acquires what strong reads since saw, and releases.
  void fence(std::uint32_t agent, Scope scope);
  /// fence.proxy.alias: the agent's accesses before and after it through a multicast and a
  /// unicast address of one location are ordered (the PTX ISA's rule for virtual aliases).
  void alias_fence(std::uint32_t agent);
  /// One lane's access of [address, address + bytes) (host addresses: global and shared alike).
  /// Returns the first race it found (also kept in findings()), if any.
  const Finding* access(std::uint32_t agent, std::uint64_t address, std::uint32_t bytes, const AccessOp& op);
  /// Forgets memory (shared memory handed to a new block).
  void forget(std::uint64_t address, std::uint64_t bytes) { shadow_.forget(address, bytes); }

  /// bar.sync / bar.arrive / bar.red: the agent arrives at barrier `id` of block `cta`.
  void barrier_arrive(std::uint32_t agent, std::uint32_t cta, int id);
  /// The barrier completed: `waiting` agents learn what every arrival knew. `full`: every live
  /// thread of the block took part (a new generation of the block).
  void barrier_complete(std::uint32_t cta, int id, bool full, const std::vector<std::uint32_t>& waiting);

  /// A warp of launch `launch` ended: what it knew joins what the launch's end publishes.
  void agent_exit(std::uint32_t agent, std::uint64_t launch);
  /// What everything of `launch` knew at its end (null when it had no warps), once.
  std::shared_ptr<Knowledge> take_launch_knowledge(std::uint64_t launch);

  const std::vector<Finding>& findings() const { return findings_; }
  bool shadow_overflowed() const { return shadow_.overflowed(); }
  /// Whether the scope `scope` of an operation by `from` includes agent `other`'s thread.
  bool includes(Scope scope, std::uint32_t from, std::uint32_t other) const;

 private:
  // The write a strong read read from: the acquirer's later accesses to it are ordered after it.
  struct Observed {
    std::uint64_t address = 0;
    std::uint32_t bytes = 0, agent = 0, epoch = 0, pc = 0;  // the write: its agent, epoch and instruction
  };
  using ObservedList = std::vector<Observed>;
  static constexpr std::size_t kMaxObserved = 32;  // observed writes an agent keeps (the latest)
  struct Release {
    std::shared_ptr<const Knowledge> known;
    std::uint32_t agent = 0, epoch = 0;
    Scope scope = Scope::none;
    std::shared_ptr<const ObservedList> observed;  // the releaser's observed writes (cumulativity)
  };
  struct Agent {
    AgentPlace place;
    std::uint32_t epoch = 1;
    std::uint32_t alias_fence = 0;        // the epoch of its last fence.proxy.alias (0: none)
    std::shared_ptr<Knowledge> known;
    std::vector<std::uint32_t> arrivals;  // epoch at each full barrier of its block, by generation
    Release fences[3];                    // the latest fence release at cta (and cluster), gpu, sys
    Release op_release;
    const void* op_instr = nullptr;
    std::vector<std::pair<Release, Observed>> pending;  // seen by strong reads, not yet acquired
    // Writes it observed (a morally strong read of them, or learned through a release or barrier):
    // ordered before its later accesses to them. Shared until changed, like `known`.
    std::shared_ptr<const ObservedList> acquired_writes;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> seen;  // (address, version) observed
  };
  struct SyncSlot {
    std::uint8_t size = 0;
    std::uint32_t version = 0;
    std::vector<Release> releases;
  };
  struct BarrierArrivals {
    Knowledge known;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> arrivals;  // (agent, epoch)
    std::vector<std::shared_ptr<Knowledge>> sent;  // each arrival's knowledge as it arrived
    ObservedList observed;                         // every arrival's observed writes
  };

  Release snapshot(std::uint32_t agent, Scope scope);
  Knowledge& mutable_known(Agent& agent);
  void learn(Agent& agent, const Release& release, Strength strength);
  /// Completes the acquire patterns of pending strong reads (of `address` only, when given) whose
  /// release is morally strong with an acquire at `scope`.
  void acquire_pending(std::uint32_t agent, Scope scope, const std::uint64_t* address);
  void remember(Agent& agent, const Observed& observed);
  void remember_all(Agent& agent, const ObservedList* observed);
  Strength known_at(const Agent& reader, const Stamp& event) const;
  bool morally_strong(const Stamp& a, const Stamp& b) const;
  bool alias_ordered(const Stamp& earlier, const Stamp& later) const;
  bool check(const Agent& reader, const Stamp& earlier, const Stamp& later, std::uint64_t address);
  void observe(std::uint32_t agent, std::uint64_t address, std::uint32_t bytes, const AccessOp& op);
  void publish(std::uint32_t agent, std::uint64_t address, std::uint32_t bytes, const AccessOp& op);

  std::vector<Agent> agents_;  // [0]: before the call
  Shadow shadow_;
  std::unordered_map<std::uint64_t, SyncSlot> sync_;
  std::map<std::uint64_t, BarrierArrivals> barriers_;  // cta << 4 | id
  std::unordered_map<std::uint32_t, std::uint32_t> generations_;  // cta -> full barriers passed
  std::unordered_map<std::uint64_t, std::shared_ptr<Knowledge>> launch_ends_;
  std::vector<Finding> findings_;
  std::uint32_t ctas_ = 0;
};

/// The scope an access resolves to: volatile is relaxed at .sys; a strong access or an atomic
/// without a scope is at .gpu; .cluster stays.
Scope resolved_scope(Sem sem, Scope scope, bool atomic);

}  // namespace pkb::ptx::mm
