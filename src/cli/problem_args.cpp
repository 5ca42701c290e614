// Flag parsing shared by the subcommands that take a problem.
#include "src/cli/problem_args.h"

#include <sstream>

#include "src/common/error.h"
#include "src/problem/dims.h"

namespace pkb::cli {

problem::ProblemIndex open_index(const GlobalOptions& global) {
  return problem::ProblemIndex(problem::ProblemIndex::default_root(global.problems_dir));
}

void add_setting_flags(CLI::App& app, SettingFlags& flags) {
  app.add_option("--world", flags.world, "World size W (default: the largest the problem allows)");
  app.add_option("--dtype", flags.dtype, "Run precision P: bf16, fp16 or fp32 (default bf16)");
  flags.dims_option = app.add_option(
      "--dims", flags.dims,
      "Sizes: test, bench or NAME=SIZE,... (default bench; test where the simulated node judges)");
}

ProblemSetting resolve_setting(const problem::ProblemSpec& spec, const SettingFlags& flags) {
  ProblemSetting setting;
  setting.world = flags.world > 0 ? flags.world : spec.world_sizes.back();
  check_world(spec, setting.world);
  setting.dtype = parse_run_dtype(spec, flags.dtype);
  setting.dims = problem::select_dims(spec, flags.dims, problem::DimsBase::bench, {setting.world});
  return setting;
}

void check_world(const problem::ProblemSpec& spec, int world) {
  if (!spec.allows_world(world))
    throw UsageError("--world " + std::to_string(world) + ": " + spec.key + " allows " +
                     join_ints(spec.world_sizes));
}

DType parse_run_dtype(const problem::ProblemSpec& spec, const std::string& text) {
  std::vector<std::string> allowed;
  for (DType dtype : spec.dtypes) allowed.emplace_back(dtype_name(dtype));
  std::string allowed_text;
  for (const auto& name : allowed) allowed_text += (allowed_text.empty() ? "" : ", ") + name;
  const auto dtype = parse_dtype(text);
  if (!dtype || !spec.allows_dtype(*dtype))
    throw UsageError("--dtype " + text + ": " + spec.key + " runs in " + allowed_text);
  return *dtype;
}

std::vector<DType> parse_run_dtypes(const problem::ProblemSpec& spec, const std::string& text) {
  std::vector<DType> dtypes;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) dtypes.push_back(parse_run_dtype(spec, item));
  if (dtypes.empty()) throw UsageError("--dtype: expected a comma-separated list, got nothing");
  return dtypes;
}

std::string join_ints(const std::vector<int>& values, const std::string& separator) {
  std::string out;
  for (int value : values) out += (out.empty() ? "" : separator) + std::to_string(value);
  return out;
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out = "[";
  for (std::size_t index = 0; index < shape.size(); ++index)
    out += (index ? ", " : "") + std::to_string(shape[index]);
  return out + "]";
}

std::string dims_text(const std::map<std::string, std::int64_t>& dims) {
  std::string out;
  for (const auto& [name, size] : dims) out += (out.empty() ? "" : " ") + name + "=" + std::to_string(size);
  return out;
}

}  // namespace pkb::cli
