// Turning the flags that name a problem, a world size, a dtype and dims into checked values,
// with errors that name the flag (docs/STYLE.md, "Errors").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "src/cli/command.h"
#include "src/common/dtype.h"
#include "src/problem/problem_index.h"
#include "src/problem/spec.h"

namespace pkb::cli {

problem::ProblemIndex open_index(const GlobalOptions& global);

/// --world, --dtype and --dims, declared once for every command that sets up a problem's run
/// (show, prompt, eval, generate, run), with one default rule: the largest world size the problem
/// allows, bf16, bench dims (test dims where the simulated node judges, for what it judges).
struct SettingFlags {
  int world = 0;  // 0: the default
  std::string dtype = "bf16";
  std::string dims = "bench";
  const CLI::Option* dims_option = nullptr;

  /// Whether --dims was given (the simulated node judges at test dims unless it was).
  bool dims_given() const { return dims_option != nullptr && dims_option->count() > 0; }
};
void add_setting_flags(CLI::App& app, SettingFlags& flags);

/// A problem's run as the flags set it, checked against the problem (errors name the flag).
struct ProblemSetting {
  int world = 0;
  DType dtype = DType::bf16;
  std::map<std::string, std::int64_t> dims;
};
ProblemSetting resolve_setting(const problem::ProblemSpec& spec, const SettingFlags& flags);

/// --world W: throws UsageError "--world 3: 001_allreduce allows 2, 4, 8".
void check_world(const problem::ProblemSpec& spec, int world);
/// --dtype D, one of the problem's run precisions.
DType parse_run_dtype(const problem::ProblemSpec& spec, const std::string& text);
/// A comma-separated --dtype list.
std::vector<DType> parse_run_dtypes(const problem::ProblemSpec& spec, const std::string& text);

std::string join_ints(const std::vector<int>& values, const std::string& separator = ", ");
std::string shape_text(const std::vector<std::int64_t>& shape);
std::string dims_text(const std::map<std::string, std::int64_t>& dims);  // "M=4 N=8"

}  // namespace pkb::cli
