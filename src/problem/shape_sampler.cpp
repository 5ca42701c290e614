// draw_dims (see shape_sampler.h): greedy moves from the test dims, each kept only when every
// rule still holds.
#include "src/problem/shape_sampler.h"

#include <algorithm>
#include <random>
#include <vector>

#include "src/common/error.h"
#include "src/problem/size_rules.h"

namespace pkb::problem {
namespace {

using Dims = std::map<std::string, std::int64_t>;

// Tries per dim and move; rules are cheap to evaluate, so these only bound the work.
constexpr int kTries = 48;
constexpr int kRounds = 10;

bool acceptable(const ProblemSpec& spec, const Dims& dims, int world) {
  if (broken_size_rule(spec, dims, world, RuleScope::drawn)) return false;
  try {
    return rank_elements(spec, dims, world) <= kMaxDrawnElements;
  } catch (const Error&) {
    return false;  // a shape that cannot be evaluated (a division by zero) is not a size
  }
}

std::int64_t uniform(std::mt19937_64& random, std::int64_t low, std::int64_t high) {
  return std::uniform_int_distribution<std::int64_t>(low, high)(random);
}

// Sets dims[name] to the first of `candidates` that keeps every rule; returns whether one did.
bool move_to_first(const ProblemSpec& spec, Dims& dims, int world, const std::string& name,
                   const std::vector<std::int64_t>& candidates) {
  const std::int64_t was = dims[name];
  for (std::int64_t value : candidates) {
    if (value < 1 || value == was) continue;
    dims[name] = value;
    if (acceptable(spec, dims, world)) return true;
  }
  dims[name] = was;
  return false;
}

// Growth: random sizes above the current one first (mostly unaligned), then multiples of it
// (which keep any divisibility the rules ask for).
void grow(const ProblemSpec& spec, Dims& dims, int world, const std::vector<std::string>& order,
          std::mt19937_64& random) {
  for (int round = 0; round < kRounds; ++round)
    for (const auto& name : order) {
      const std::int64_t now = dims[name];
      std::vector<std::int64_t> candidates;
      const std::int64_t reach = round < kRounds / 2 ? 4 * now + 8 : 2 * now + 2;
      for (int t = 0; t < kTries; ++t) candidates.push_back(uniform(random, now + 1, reach));
      for (std::int64_t factor : {4, 3, 2}) candidates.push_back(now * factor);
      for (int t = 0; t < kTries / 4; ++t) candidates.push_back(now + dims.at(name) / 2 + uniform(random, 1, 4));
      move_to_first(spec, dims, world, name, candidates);
    }
}

void shrink(const ProblemSpec& spec, Dims& dims, int world, const std::vector<std::string>& order) {
  for (int round = 0; round < 2; ++round)
    for (const auto& name : order) {
      std::vector<std::int64_t> candidates;
      for (std::int64_t value = 1; value < dims[name] && value <= 4096; ++value) candidates.push_back(value);
      move_to_first(spec, dims, world, name, candidates);
    }
}

void wander(const ProblemSpec& spec, Dims& dims, int world, const std::vector<std::string>& order,
            std::mt19937_64& random) {
  for (int round = 0; round < 3; ++round)
    for (const auto& name : order) {
      const std::int64_t now = dims[name];
      std::vector<std::int64_t> candidates;
      for (int t = 0; t < kTries; ++t) {
        std::int64_t value = uniform(random, 1, 3 * now + 17);
        if (value % 2 == 0 && t < kTries / 2) value += 1;  // odd sizes first
        candidates.push_back(value);
      }
      move_to_first(spec, dims, world, name, candidates);
    }
}

}  // namespace

std::string_view draw_kind_name(DrawKind kind) {
  switch (kind) {
    case DrawKind::large: return "large";
    case DrawKind::smallest: return "smallest";
    case DrawKind::unaligned: return "unaligned";
  }
  return "?";
}

std::int64_t rank_elements(const ProblemSpec& spec, const Dims& dims, int world) {
  std::int64_t most = 0;
  for (int rank : {0, world - 1}) {
    const ExprEnv env = make_env(dims, world, rank);
    std::int64_t total = 0;
    for (const auto* tensors : {&spec.inputs, &spec.outputs})
      for (const auto& tensor : *tensors) {
        std::int64_t count = 1;
        for (std::int64_t size : eval_shape(tensor, env)) count *= std::max<std::int64_t>(size, 0);
        total += count;
      }
    most = std::max(most, total);
  }
  return most;
}

Dims draw_dims(const ProblemSpec& spec, int world, std::uint64_t seed, DrawKind kind) {
  std::mt19937_64 random(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(kind) + 1);
  Dims dims = spec.test_dims;
  std::vector<std::string> order;
  for (const auto& [name, size] : dims) order.push_back(name);
  std::shuffle(order.begin(), order.end(), random);
  if (!acceptable(spec, dims, world)) return dims;  // load-time checks make this unreachable
  switch (kind) {
    case DrawKind::large: grow(spec, dims, world, order, random); break;
    case DrawKind::smallest: shrink(spec, dims, world, order); break;
    case DrawKind::unaligned: wander(spec, dims, world, order, random); break;
  }
  return dims;
}

std::map<std::string, std::int64_t> check_dims(const ProblemSpec& spec, int world, int k) {
  constexpr DrawKind kKinds[] = {DrawKind::large, DrawKind::smallest, DrawKind::unaligned};
  const auto seed = static_cast<std::uint64_t>(spec.id * 1009 + world * 31 + k);
  int log2_world = 0;
  while ((2 << log2_world) <= world) ++log2_world;
  return draw_dims(spec, world, seed, kKinds[(log2_world + k) % 3]);
}

}  // namespace pkb::problem
