// The detector's block barriers and launch ends: an arrival adds what its warp knows to the
// barrier; a completion hands every waiter what all arrivals knew (a full barrier folds the
// block's warps into one generation entry); a warp's end adds what it knew to its launch's end,
// which the simulated device joins into the launch's stream.
#include <algorithm>

#include "harness/ptx/memory_model/race_detector.h"

namespace pkb::ptx::mm {

void RaceDetector::barrier_arrive(std::uint32_t agent, std::uint32_t cta, int id) {
  Agent& a = agents_[agent];
  BarrierArrivals& barrier = barriers_[std::uint64_t{cta} << 4 | static_cast<std::uint64_t>(id)];
  barrier.known.join(*a.known, Strength::ordered);
  barrier.known.raise_agent(agent, a.epoch, Strength::ordered);
  barrier.arrivals.push_back({agent, a.epoch});
  barrier.sent.push_back(a.known);  // shared now: a later change of a.known copies it first
  if (a.acquired_writes)
    for (const Observed& seen : *a.acquired_writes)
      if (barrier.observed.size() < kMaxObserved) barrier.observed.push_back(seen);
  ++a.epoch;
}

void RaceDetector::barrier_complete(std::uint32_t cta, int id, bool full, const std::vector<std::uint32_t>& waiting) {
  auto it = barriers_.find(std::uint64_t{cta} << 4 | static_cast<std::uint64_t>(id));
  if (it == barriers_.end()) return;
  auto known = std::make_shared<Knowledge>(std::move(it->second.known));
  if (full) {
    const std::uint32_t generation = ++generations_[cta];
    for (const auto& [agent, epoch] : it->second.arrivals) {
      auto& arrivals = agents_[agent].arrivals;
      if (arrivals.size() < generation) arrivals.resize(generation, 0);
      arrivals[generation - 1] = std::max(arrivals[generation - 1], epoch);
    }
    known->raise_cta(cta, generation, Strength::ordered);
    // Entries of this block's warps up to their arrival are now the generation's.
    known->drop_agents([&](std::uint32_t agent, const Levels& levels) {
      const Agent& a = agents_[agent];
      return a.place.cta == cta && a.arrivals.size() >= generation &&
             levels.at[kStrengths - 1] <= a.arrivals[generation - 1];
    });
  }
  const BarrierArrivals arrived = std::move(it->second);
  barriers_.erase(it);
  for (std::uint32_t agent : waiting) {
    Agent& a = agents_[agent];
    // Unchanged since it arrived (the usual case): what it knew is in `known` already.
    bool unchanged = false;
    for (std::size_t i = 0; i < arrived.arrivals.size(); ++i)
      if (arrived.arrivals[i].first == agent && arrived.sent[i] == a.known) unchanged = true;
    if (unchanged) a.known = known;
    else mutable_known(a).join(*known, Strength::ordered);
    remember_all(a, &arrived.observed);
  }
}

void RaceDetector::agent_exit(std::uint32_t agent, std::uint64_t launch) {
  auto& end = launch_ends_[launch];
  if (!end) end = std::make_shared<Knowledge>();
  end->join(*agents_[agent].known, Strength::ordered);
}

std::shared_ptr<Knowledge> RaceDetector::take_launch_knowledge(std::uint64_t launch) {
  auto it = launch_ends_.find(launch);
  if (it == launch_ends_.end()) return nullptr;
  auto known = std::move(it->second);
  launch_ends_.erase(it);
  return known;
}

}  // namespace pkb::ptx::mm
