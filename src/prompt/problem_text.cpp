// Argument lines: each shape as problem.json writes it (the expression a plan can copy) and its
// value in this run; ranks with equal shapes share a line so W = 8 stays short.
#include "src/prompt/problem_text.h"

#include <nlohmann/json.hpp>

#include "src/problem/groups.h"

namespace pkb::prompt {
namespace {

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out = "[";
  for (std::size_t index = 0; index < shape.size(); ++index)
    out += (index ? ", " : "") + std::to_string(shape[index]);
  return out + "]";
}

std::string ranks_text(int first, int last, int world) {
  if (first == 0 && last == world - 1) return "on every rank";
  if (first == last) return "on rank " + std::to_string(first);
  return "on ranks " + std::to_string(first) + "-" + std::to_string(last);
}

/// "[M, N] = [1024, 64]"; a shape of plain numbers is shown once ("[1]").
std::string shape_with_expressions(const problem::TensorSpec& tensor, const std::vector<std::int64_t>& shape) {
  std::string expressions = "[";
  for (std::size_t index = 0; index < tensor.shape.size(); ++index)
    expressions += (index ? ", " : "") + tensor.shape[index].text();
  expressions += "]";
  const std::string values = shape_text(shape);
  return expressions == values ? values : expressions + " = " + values;
}

}  // namespace

std::string arguments_text(const problem::ProblemSpec& spec, int world, DType dtype,
                           const std::map<std::string, std::int64_t>& dims) {
  std::string out;
  auto add = [&](const std::string& role, const problem::TensorSpec& tensor) {
    auto shape_of = [&](int rank) {
      return problem::eval_shape(tensor, problem::make_env(dims, world, rank));
    };
    const std::string head = "- " + role + " `" + tensor.name +
                             "`: " + std::string(dtype_name(tensor.dtype.resolve(dtype))) + " ";
    int first = 0;
    for (int rank = 1; rank <= world; ++rank) {
      if (rank < world && shape_of(rank) == shape_of(first)) continue;
      out += head + shape_with_expressions(tensor, shape_of(first)) + " " + ranks_text(first, rank - 1, world);
      out += first == 0 && !tensor.doc.empty() ? " (" + tensor.doc + ")\n" : "\n";
      first = rank;
    }
  };
  for (const auto& tensor : spec.inputs) add("input", tensor);
  for (const auto& tensor : spec.outputs) add(tensor.inout ? "inout" : "output", tensor);
  return out;
}

std::string scalars_text(const problem::ProblemSpec& spec) {
  std::string out;
  for (const auto& scalar : spec.scalars) {
    // nlohmann prints the shortest text that reads back as the same double: stable across runs.
    const std::string value = scalar.type == problem::ScalarType::int64
                                  ? std::to_string(static_cast<std::int64_t>(scalar.value))
                                  : nlohmann::json(scalar.value).dump();
    out += "- `" + scalar.name + "` = " + value +
           // A real scalar is a double in the reference: f64(NAME) passes it exactly, f32(NAME) rounds.
           (scalar.type == problem::ScalarType::int64 ? " (int)" : " (double; f64(" + scalar.name + ") passes it exactly)") +
           (scalar.doc.empty() ? "" : ": " + scalar.doc) + "\n";
  }
  return out;
}

std::string groups_text(const problem::ProblemSpec& spec, int world,
                        const std::map<std::string, std::int64_t>& dims) {
  std::string out;
  for (const auto& group : spec.groups) {
    const auto size = group.size.eval(problem::make_env(dims, world, 0));
    const std::string size_text = std::to_string(size);
    // The expression too (as for shapes): a plan that works at every W needs it.
    const std::string expression = group.size.text() == size_text ? "" : group.size.text() + " = ";
    out += "- `" + group.name + "`: groups of " + expression + size_text + " ranks, " +
           (group.layout == problem::GroupLayout::block
                ? "consecutive ranks together (block)"
                : "every " + std::to_string(size > 0 ? world / size : 0) +
                      "-th rank together (strided)");
    // Each instance's members at this W, in group-rank order (the rule of src/problem/groups.h).
    std::string members;
    if (size > 0 && world % size == 0)
      for (const auto& instance : problem::group_instances(group, world, dims)) {
        std::string list;
        for (int rank : instance) list += (list.empty() ? "" : ",") + std::to_string(rank);
        members += " [" + list + "]";
      }
    out += (members.empty() ? "" : ":" + members) + "\n";
  }
  return out;
}

std::string dims_line(const std::map<std::string, std::int64_t>& dims) {
  std::string out;
  for (const auto& [name, size] : dims)
    out += (out.empty() ? "" : ", ") + name + "=" + std::to_string(size);
  return out;
}

}  // namespace pkb::prompt
