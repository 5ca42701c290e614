// The shapes one sample is judged at (docs/ARCHITECTURE.md, "Evaluation"): its main sizes (the
// test dims on the simulated node, the bench dims on GPUs, or the one shape --dims pins) with the
// trials there, and, unless --dims pinned a shape, sizes drawn under the problem's size rules
// from each drawn trial's seed (src/problem/shape_sampler.h), one trial each. On the simulated
// node the drawn trials take the place of main ones (the trials are spread over the shapes, so a
// sample costs about what it did) and the first runs with a few SMs per rank (2 or 4), so a grid
// capped by num_sms without a grid-stride loop falls short; on GPUs they are added to the main
// trials and run with the GPU's own SMs. Timing stays at the main sizes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/problem/spec.h"

namespace pkb::eval {

/// Drawn shapes per sample unless --dims pins one shape.
constexpr int kDefaultDrawnShapes = 2;

struct JudgedShape {
  std::map<std::string, std::int64_t> dims;
  std::vector<int> seeds;  // one correctness trial each
  int num_sms = 0;         // SMs per rank on the simulated node (0: the target's)
  std::string kind;        // "main", or the draw: "large", "smallest", "unaligned"
};

/// The main shape first, then `drawn` drawn ones; `next_seed` gives each trial its secret seed.
std::vector<JudgedShape> sample_shapes(const problem::ProblemSpec& spec, int world,
                                       const std::map<std::string, std::int64_t>& main_dims,
                                       int trials, int drawn, bool sim,
                                       const std::function<int()>& next_seed);

/// "M=4 N=8".
std::string shape_dims_text(const std::map<std::string, std::int64_t>& dims);

/// The record's "shapes": [{"dims": {...}, "trials": n, "kind": "...", "num_sms": k}, ...].
nlohmann::json shapes_json(const std::vector<JudgedShape>& shapes);

}  // namespace pkb::eval
