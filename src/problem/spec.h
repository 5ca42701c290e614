// ProblemSpec: what problems/NNN_name/problem.json says, parsed and checked (see spec_loader.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "src/common/dtype.h"
#include "src/problem/shape_expr.h"

namespace pkb::problem {

/// A tensor's element type: the run precision P, or a fixed type.
struct DTypeRef {
  bool is_run_precision = true;
  DType fixed = DType::fp32;  // used when !is_run_precision
  DType resolve(DType run_dtype) const { return is_run_precision ? run_dtype : fixed; }
  std::string name() const;  // "P" or the fixed type's name
};

struct TensorSpec {
  std::string name;
  DTypeRef dtype;
  std::vector<ShapeExpr> shape;
  bool inout = false;  // outputs only: initialised from the input of the same name
  std::string doc;
};

enum class ScalarType { int64, float64 };

struct ScalarSpec {
  std::string name;
  ScalarType type = ScalarType::int64;
  double value = 0;
  std::string doc;
};

/// How the world splits into equal sub-groups: `block` puts consecutive ranks together
/// ({0,1},{2,3} for size 2 at W=4); `strided` takes every (W/size)-th rank ({0,2},{1,3}).
enum class GroupLayout { block, strided };

struct GroupSpec {
  std::string name;
  ShapeExpr size;
  GroupLayout layout = GroupLayout::block;
};

/// One resource's least work per rank for one call (issue 10): an integer expression over the
/// dims, W and the element size, and the one-line derivation shown by `pkb sol`.
struct SolTerm {
  ShapeExpr expr;
  std::string why;
};

/// problem.json "sol": the floor of one call, per rank (docs: the "sol" entry in ARCHITECTURE.md).
struct SolSpec {
  SolTerm link_bytes;  // bytes one rank sends over NVLink, best algorithm without multicast
  std::optional<SolTerm> link_bytes_nvls;  // the same with NVLS multicast / in-switch reduction
  SolTerm hbm_bytes;                       // bytes one rank moves to and from its own HBM
  SolTerm flops;                           // floating-point operations one rank must do
  std::string notes;
};

/// problem.json "size_rules": one constraint on the sizes, an expression over the dims, W and the
/// int scalars that holds when nonzero ("M % W == 0"). A rule a user of such a kernel faces binds
/// every size (test, bench, --dims, drawn); a `drawn_only` rule only bounds the sizes pkb draws
/// for extra correctness trials (keeping a simulated trial cheap). src/problem/size_rules.h.
struct SizeRule {
  ShapeExpr rule;
  std::string why;
  bool drawn_only = false;
};

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

struct ProblemSpec {
  int id = 0;
  std::string name;      // "allreduce"
  std::string key;       // "001_allreduce": folder, reference .cpp and registry name
  std::string category;  // "collective", "tensor-parallel", ...
  std::string summary;
  std::map<std::string, std::int64_t> dims;       // benchmark sizes
  std::map<std::string, std::int64_t> test_dims;  // small sizes for CPU tests
  std::vector<int> world_sizes;
  std::vector<DType> dtypes;  // run precisions the problem allows
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  std::vector<ScalarSpec> scalars;
  std::vector<GroupSpec> groups;
  std::vector<SizeRule> size_rules;
  std::map<DType, Tolerance> tolerance;
  /// A candidate may be this many times as far from the fp64 answer as the reference in P is.
  double error_ratio = 8;
  /// Ranks whose outputs carry the answer (all when empty); documented for root-only problems.
  std::string check_note;
  std::string upstream_divergence;
  std::optional<SolSpec> sol;  // absent in a problem that has no "sol" entry yet
  std::filesystem::path dir;  // problems/NNN_name

  bool allows_world(int world) const;
  bool allows_dtype(DType dtype) const;
  const Tolerance& tolerance_for(DType dtype) const;  // exact (0, 0) for integer types
};

/// The shape of a tensor on one rank, with the dims chosen for the run.
std::vector<std::int64_t> eval_shape(const TensorSpec& tensor, const ExprEnv& env);

/// dims + {"W": world, "rank": rank}.
ExprEnv make_env(const std::map<std::string, std::int64_t>& dims, int world, int rank);

/// The names a sol expression sees: the dims, W, ELEM (bytes per element of `dtype`) and E, an
/// alias of ELEM in problems without a dim of that name (a problem's own dim keeps its meaning).
ExprEnv make_sol_env(const std::map<std::string, std::int64_t>& dims, int world, DType dtype);

/// The names make_sol_env defines for `dims`, for checking expressions at load time.
std::set<std::string> sol_names(const std::map<std::string, std::int64_t>& dims);

}  // namespace pkb::problem
