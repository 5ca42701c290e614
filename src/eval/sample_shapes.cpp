// sample_shapes (see sample_shapes.h).
#include "src/eval/sample_shapes.h"

#include <algorithm>

#include "src/problem/shape_sampler.h"

namespace pkb::eval {

std::vector<JudgedShape> sample_shapes(const problem::ProblemSpec& spec, int world,
                                       const std::map<std::string, std::int64_t>& main_dims,
                                       int trials, int drawn, bool sim,
                                       const std::function<int()>& next_seed) {
  JudgedShape main{main_dims, {}, 0, "main"};
  const int main_trials = sim ? std::max(1, trials - drawn) : trials;
  for (int trial = 0; trial < main_trials; ++trial) main.seeds.push_back(next_seed());
  std::vector<JudgedShape> shapes = {main};
  for (int index = 0; index < drawn; ++index) {
    const int seed = next_seed();
    // The first draw is large (and, on the simulated node, on 2 or 4 SMs per rank); the others
    // alternate between the smallest sizes and unaligned ones, starting where the seed says.
    problem::DrawKind kind = problem::DrawKind::large;
    if (index > 0)
      kind = (seed + index) % 2 == 0 ? problem::DrawKind::smallest : problem::DrawKind::unaligned;
    JudgedShape shape;
    shape.dims = problem::draw_dims(spec, world, static_cast<std::uint64_t>(seed), kind);
    shape.seeds = {seed};
    shape.kind = std::string(problem::draw_kind_name(kind));
    if (sim && kind == problem::DrawKind::large) shape.num_sms = seed % 2 == 0 ? 1 : 2;
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

std::string shape_dims_text(const std::map<std::string, std::int64_t>& dims) {
  std::string out;
  for (const auto& [name, size] : dims) out += (out.empty() ? "" : " ") + name + "=" + std::to_string(size);
  return out;
}

nlohmann::json shapes_json(const std::vector<JudgedShape>& shapes) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& shape : shapes) {
    nlohmann::json item = {{"dims", shape.dims},
                           {"trials", static_cast<int>(shape.seeds.size())},
                           {"kind", shape.kind}};
    if (shape.num_sms > 0) item["num_sms"] = shape.num_sms;
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace pkb::eval
