// `--shard I/N`: which part of a run's (problem, sample) work list one process takes, so that N
// independent processes on N nodes cover the list exactly once (docs/SCALE.md).
//
// The rule: sort the work list by (problem key, sample) and give position p to shard p mod N. It
// depends only on the list, never on thread timing or the order flags were given, and it deals a
// problem's samples round-robin, so an expensive problem is spread over the shards.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pkb::shard {

struct Shard {
  int index = 0;  // I, 0-based
  int count = 1;  // N; 1 is the whole run
  bool whole() const { return count == 1; }
};

/// The help line for the flag, the same on generate, run and evaluate.
extern const char* const kShardHelp;

/// Parses "I/N" with 0 <= I < N. Throws pkb::UsageError naming --shard:
/// "--shard 3/3: expected I/N with 0 <= I < N, e.g. 0/3 for the first of 3 shards".
Shard parse_shard(const std::string& text);

/// "I/N".
std::string shard_text(Shard shard);

struct WorkItem {
  std::string problem;  // "001_allreduce"
  int sample = 0;
  bool operator==(const WorkItem& other) const {
    return problem == other.problem && sample == other.sample;
  }
};

/// Every sample 0..samples-1 of every problem, in the order given.
std::vector<WorkItem> work_list(const std::vector<std::string>& problems, int samples);

/// The items of `work` that `shard` owns, in the order of `work`. Position p of the sorted list
/// belongs to shard p mod N. `work` must be the whole run's list (before resumed samples are
/// dropped), or a resumed shard would take other samples than its first attempt.
std::vector<WorkItem> select_shard(const std::vector<WorkItem>& work, Shard shard);

/// For each item of `work`, in its order, the shard of `count` that owns it.
std::vector<int> owners(const std::vector<WorkItem>& work, int count);

/// The test a generation or evaluation loop applies to each (problem, sample) of its whole run,
/// before it drops resumed samples: select_shard over problems x samples, kept as a set.
class ShardFilter {
 public:
  ShardFilter(const std::vector<std::string>& problems, int samples, Shard shard);
  bool owns(const std::string& problem, int sample) const;

 private:
  bool whole_;
  std::set<std::pair<std::string, int>> owned_;
};

/// run.json's "shard": {"index": I, "count": N}, or null for a whole run (written only when not
/// null; `pkb merge` and `pkb slurm status` read it).
nlohmann::json shard_json(Shard shard);

}  // namespace pkb::shard
