// `pkb show P [--world W] [--dtype D] [--dims ...] [--json]`: the spec, the shapes every rank's
// arguments take at those settings, and the Python reference a model is shown.
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "src/cli/command.h"
#include "src/cli/problem_args.h"
#include "src/common/error.h"
#include "src/problem/dims.h"
#include "src/problem/size_rules.h"

namespace pkb::cli {
namespace {

struct ArgumentShapes {
  std::string role;  // input, output
  std::string name;
  std::string dtype;
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> by_ranks;  // "0", "1-7" -> shape
};

// Ranks with the same shape share one entry ("1-7"), so W = 8 stays readable.
std::vector<ArgumentShapes> argument_shapes(const problem::ProblemSpec& spec, int world, DType dtype,
                                            const std::map<std::string, std::int64_t>& dims) {
  std::vector<ArgumentShapes> out;
  auto add = [&](const std::string& role, const problem::TensorSpec& tensor) {
    ArgumentShapes shapes{role, tensor.name, std::string(dtype_name(tensor.dtype.resolve(dtype))), {}};
    int first = 0;
    auto shape_of = [&](int rank) { return problem::eval_shape(tensor, problem::make_env(dims, world, rank)); };
    for (int rank = 1; rank <= world; ++rank) {
      if (rank < world && shape_of(rank) == shape_of(first)) continue;
      const std::string ranks = first == rank - 1 ? std::to_string(first)
                                                  : std::to_string(first) + "-" + std::to_string(rank - 1);
      shapes.by_ranks.emplace_back(ranks, shape_of(first));
      first = rank;
    }
    out.push_back(shapes);
  };
  for (const auto& tensor : spec.inputs) add("input", tensor);
  for (const auto& tensor : spec.outputs) add(tensor.inout ? "inout" : "output", tensor);
  return out;
}

// "M % W == 0 (why); drawn trials also keep M * N <= 16384 (why)", or "any size" without rules.
std::string size_rules_line(const problem::ProblemSpec& spec) {
  std::string user = problem::size_rules_text(spec), drawn;
  for (const auto& rule : spec.size_rules)
    if (rule.drawn_only) drawn += (drawn.empty() ? "" : "; ") + problem::size_rule_text(rule);
  if (user.empty()) user = "any size";
  return drawn.empty() ? user : user + "; drawn trials also keep " + drawn;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path.string() + ": cannot read the Python reference");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::function<int()> setup_show(CLI::App& app, const GlobalOptions& global) {
  struct Flags {
    std::string problem;
    SettingFlags setting;
    bool json = false;
  };
  auto flags = std::make_shared<Flags>();
  app.add_option("problem", flags->problem, "Problem id or name (e.g. 1, 001_allreduce, allreduce)")->required();
  add_setting_flags(app, flags->setting);
  app.add_flag("--json", flags->json, "Print one JSON document instead of text");
  return [&global, flags] {
    const auto index = open_index(global);
    const auto spec = index.load(index.resolve(flags->problem));
    const auto [world, dtype, dims] = resolve_setting(spec, flags->setting);
    const auto shapes = argument_shapes(spec, world, dtype, dims);
    const std::string source = read_text(spec.dir / "reference.py");

    if (flags->json) {
      nlohmann::ordered_json doc = {{"schema_version", 1}, {"id", spec.id}, {"key", spec.key},
                                    {"category", spec.category}, {"summary", spec.summary},
                                    {"world", world}, {"dtype", dtype_name(dtype)}, {"dims", dims}};
      doc["arguments"] = nlohmann::ordered_json::array();
      for (const auto& argument : shapes) {
        nlohmann::ordered_json ranks = nlohmann::ordered_json::object();
        for (const auto& [range, shape] : argument.by_ranks) ranks[range] = shape;
        doc["arguments"].push_back({{"role", argument.role}, {"name", argument.name},
                                    {"dtype", argument.dtype}, {"shape_by_ranks", ranks}});
      }
      nlohmann::ordered_json scalars = nlohmann::ordered_json::object();
      for (const auto& scalar : spec.scalars) scalars[scalar.name] = scalar.value;
      doc["scalars"] = scalars;
      doc["upstream_divergence"] = spec.upstream_divergence;
      doc["check_note"] = spec.check_note;
      doc["size_rules"] = nlohmann::ordered_json::array();
      for (const auto& rule : spec.size_rules)
        doc["size_rules"].push_back(
            {{"rule", rule.rule.text()}, {"why", rule.why}, {"drawn_only", rule.drawn_only}});
      doc["reference_py"] = source;
      std::cout << doc.dump(2) << "\n";
      return 0;
    }
    std::cout << spec.key << " (" << spec.category << "): " << spec.summary << "\n"
              << "  world sizes: " << join_ints(spec.world_sizes) << "\n"
              << "  bench dims: " << dims_text(spec.dims) << "; test dims: " << dims_text(spec.test_dims) << "\n"
              << "  size rules: " << size_rules_line(spec) << "\n";
    for (const auto& scalar : spec.scalars)
      std::cout << "  scalar " << scalar.name << " = " << scalar.value << (scalar.doc.empty() ? "" : "  (" + scalar.doc + ")") << "\n";
    for (const auto& group : spec.groups)
      std::cout << "  group " << group.name << ": size " << group.size.text() << ", "
                << (group.layout == problem::GroupLayout::block ? "block" : "strided") << "\n";
    if (!spec.check_note.empty()) std::cout << "  check: " << spec.check_note << "\n";
    if (!spec.upstream_divergence.empty()) std::cout << "  differs from upstream: " << spec.upstream_divergence << "\n";
    std::cout << "\narguments at W=" << world << ", P=" << dtype_name(dtype) << ", " << dims_text(dims) << ":\n";
    for (const auto& argument : shapes)
      for (const auto& [ranks, shape] : argument.by_ranks)
        std::cout << "  " << argument.role << " " << argument.name << ": " << argument.dtype << " "
                  << shape_text(shape) << "  (" << (ranks.find('-') == std::string::npos ? "rank " : "ranks ")
                  << ranks << ")\n";
    std::cout << "\n" << (spec.dir / "reference.py").string() << ":\n" << source;
    return 0;
  };
}

}  // namespace pkb::cli
