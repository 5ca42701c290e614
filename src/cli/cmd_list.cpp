// `pkb list [--json]`: one row per problem.
#include <iostream>

#include <nlohmann/json.hpp>

#include "src/cli/command.h"
#include "src/cli/problem_args.h"
#include "src/cli/table.h"

namespace pkb::cli {
namespace {

nlohmann::ordered_json to_json(const problem::ProblemSpec& spec) {
  std::vector<std::string> dtypes;
  for (DType dtype : spec.dtypes) dtypes.emplace_back(dtype_name(dtype));
  return {{"id", spec.id},       {"key", spec.key},
          {"name", spec.name},   {"category", spec.category},
          {"world_sizes", spec.world_sizes}, {"dtypes", dtypes},
          {"dims", spec.dims},   {"test_dims", spec.test_dims},
          {"summary", spec.summary}};
}

}  // namespace

std::function<int()> setup_list(CLI::App& app, const GlobalOptions& global) {
  auto json = std::make_shared<bool>(false);
  app.add_flag("--json", *json, "Print one JSON document instead of the table");
  return [&global, json] {
    const auto index = open_index(global);
    const auto specs = index.load_all();
    if (*json) {
      nlohmann::ordered_json doc = {{"schema_version", 1}, {"problems", nlohmann::ordered_json::array()}};
      for (const auto& spec : specs) doc["problems"].push_back(to_json(spec));
      std::cout << doc.dump(2) << "\n";
      return 0;
    }
    Table table({"id", "name", "category", "world", "dims (bench)", "summary"});
    table.add_comment("problems: " + index.root().string());
    for (const auto& spec : specs)
      table.add_row({std::to_string(spec.id), spec.key, spec.category, join_ints(spec.world_sizes, ","),
                     dims_text(spec.dims), spec.summary});
    table.set_verdict(std::to_string(specs.size()) + " problems");
    table.print(std::cout);
    return 0;
  };
}

}  // namespace pkb::cli
