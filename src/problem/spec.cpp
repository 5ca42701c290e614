// Small queries on ProblemSpec.
#include "src/problem/spec.h"

#include <algorithm>

namespace pkb::problem {

std::string DTypeRef::name() const {
  return is_run_precision ? "P" : std::string(dtype_name(fixed));
}

bool ProblemSpec::allows_world(int world) const {
  return std::find(world_sizes.begin(), world_sizes.end(), world) != world_sizes.end();
}

bool ProblemSpec::allows_dtype(DType dtype) const {
  return std::find(dtypes.begin(), dtypes.end(), dtype) != dtypes.end();
}

const Tolerance& ProblemSpec::tolerance_for(DType dtype) const {
  static const Tolerance kExact{};
  auto found = tolerance.find(dtype);
  return found == tolerance.end() ? kExact : found->second;
}

std::vector<std::int64_t> eval_shape(const TensorSpec& tensor, const ExprEnv& env) {
  std::vector<std::int64_t> shape;
  shape.reserve(tensor.shape.size());
  for (const auto& expr : tensor.shape) shape.push_back(expr.eval(env));
  return shape;
}

ExprEnv make_env(const std::map<std::string, std::int64_t>& dims, int world, int rank) {
  ExprEnv env(dims.begin(), dims.end());
  env["W"] = world;
  env["rank"] = rank;
  return env;
}

ExprEnv make_sol_env(const std::map<std::string, std::int64_t>& dims, int world, DType dtype) {
  ExprEnv env(dims.begin(), dims.end());
  env["W"] = world;
  env["ELEM"] = static_cast<std::int64_t>(dtype_size(dtype));
  env.emplace("E", env["ELEM"]);  // no-op when a dim is called E
  return env;
}

std::set<std::string> sol_names(const std::map<std::string, std::int64_t>& dims) {
  std::set<std::string> names = {"W", "ELEM", "E"};
  for (const auto& [name, size] : dims) names.insert(name);
  return names;
}

}  // namespace pkb::problem
