// The shape sampler: sizes drawn under a problem's size rules (src/problem/size_rules.h) from a
// trial's seed, for the correctness trials beyond the test dims (docs/ARCHITECTURE.md,
// "Evaluation"). Deterministic: one seed, one shape, on every machine. Each draw starts at the
// test dims (which satisfy every rule) and moves one dim at a time, keeping every rule (drawn_only
// bounds included) and an element budget, toward what a fixed shape misses:
//   large:     as many elements as the rules allow, by sizes that are mostly not multiples of the
//              16-byte pack, the warp or the block (a grid capped by num_sms falls short);
//   smallest:  each dim as small as the rules allow (1 where nothing forbids it);
//   unaligned: a random walk over odd and unaligned sizes around the test dims.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "src/problem/spec.h"

namespace pkb::problem {

enum class DrawKind { large, smallest, unaligned };
std::string_view draw_kind_name(DrawKind kind);

/// Input and output elements of one rank (the largest over ranks 0 and W-1) at `dims`.
std::int64_t rank_elements(const ProblemSpec& spec, const std::map<std::string, std::int64_t>& dims,
                           int world);

/// A drawn shape never holds more elements per rank than this (a safety net under the rules'
/// own drawn_only bounds): simulated trials stay cheap.
constexpr std::int64_t kMaxDrawnElements = 1 << 18;

/// Sizes for `world` drawn with `seed`, satisfying every rule of the problem (RuleScope::drawn).
std::map<std::string, std::int64_t> draw_dims(const ProblemSpec& spec, int world,
                                              std::uint64_t seed, DrawKind kind);

/// The k-th shape drawn for checking the reference itself at `world` (pkb validate --drawn, the
/// parity tests' drawn jobs): seeded by problem, W and k, so every run checks the same shapes,
/// and the kinds taken in turn.
std::map<std::string, std::int64_t> check_dims(const ProblemSpec& spec, int world, int k);

}  // namespace pkb::problem
