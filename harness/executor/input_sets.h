// How many copies of the inputs a timing run rotates through (docs/ARCHITECTURE.md, "Evaluation": the working set must
// exceed 3x L2, so no iteration finds its inputs in cache, and every input rotates, not only the
// first). Values come from a few distinct seeded sets; further copies repeat them at other
// addresses, which is what defeats the cache, without drawing thousands of reference inputs.
// Pure: no CUDA, unit-tested.
#pragma once

#include <cstdint>

namespace pkb::harness {

struct InputSetPolicy {
  double l2_multiple = 3;  // the working set exceeds this many L2s
  int min_sets = 2;        // >= 2: the re-check after timing needs another set
  int max_sets = 4096;     // tiny inputs: cap the count, not the working set
  int max_distinct = 8;    // seeded value sets; copies repeat them
  std::uint64_t memory_budget_bytes = 8ull << 30;  // all sets together, per rank
};

struct InputSetPlan {
  int sets = 1;             // set 0 plus copies
  int distinct = 1;         // sets with their own seed; set k holds the values of set k % distinct
  bool exceeds_l2 = false;  // false when memory or the count cap stopped short of the goal
  std::uint64_t working_set_bytes = 0;
};

/// `set_bytes`: the input (and inout) bytes of one set as seen by the cache (per GPU; in
/// emulation the sum over the ranks sharing it). `l2_bytes`: the device's L2.
InputSetPlan plan_input_sets(std::uint64_t set_bytes, std::uint64_t l2_bytes,
                             const InputSetPolicy& policy = {});

}  // namespace pkb::harness
