// `pkb validate P|--all [--world W] [--dtype LIST] [--dims ...] [--json]` (docs/ADDING_A_PROBLEM.md, step 5): every
// perturbed mode must pass the problem's check and every broken mode must fail it.
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "src/cli/command.h"
#include "src/cli/problem_args.h"
#include "src/cli/progress.h"
#include "src/cli/table.h"
#include "src/common/error.h"
#include "src/problem/dims.h"
#include "src/problem/shape_sampler.h"
#include "src/validate/validate.h"

namespace pkb::cli {
namespace {

// At a drawn shape only the perturbed modes must pass (the check must accept every correct
// answer there); a broken mode may go unseen at a degenerate size (one element, one rank's worth),
// which the test dims and the other shapes of a sample still catch.
bool case_ok(const validate::CaseResult& result, bool drawn) {
  if (!drawn) return result.ok();
  for (const auto& mode : result.modes)
    if (validate::must_pass(mode.mode) && !mode.ok) return false;
  return true;
}

std::string cell(const validate::ModeResult& mode, bool drawn) {
  if (validate::must_pass(mode.mode)) return mode.ok ? "pass" : "FAIL!";
  return mode.ok ? "caught" : drawn ? "missed" : "MISSED!";
}

nlohmann::ordered_json to_json(const validate::CaseResult& result, bool drawn) {
  nlohmann::ordered_json modes = nlohmann::ordered_json::array();
  for (const auto& mode : result.modes)
    modes.push_back({{"mode", validate::mode_name(mode.mode)}, {"must_pass", validate::must_pass(mode.mode)},
                     {"check_passed", mode.check_passed}, {"ok", mode.ok}, {"detail", mode.detail}});
  return {{"key", result.key}, {"world", result.world}, {"dtype", dtype_name(result.dtype)},
          {"dims", result.dims}, {"drawn", drawn}, {"ok", case_ok(result, drawn)}, {"modes", modes}};
}

// With --all, a dtype some problems do not run in is skipped for them; for one problem it is an
// error, so a typo in --dtype never passes silently.
std::vector<DType> dtypes_of(const problem::ProblemSpec& spec, const std::string& text, bool all) {
  if (!all) return parse_run_dtypes(spec, text);
  std::vector<DType> dtypes;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    const auto dtype = parse_dtype(item);
    if (!dtype || !is_run_precision(*dtype))
      throw UsageError("--dtype " + item + ": expected bf16, fp16 or fp32");
    if (spec.allows_dtype(*dtype)) dtypes.push_back(*dtype);
  }
  return dtypes;
}

}  // namespace

std::function<int()> setup_validate(CLI::App& app, const GlobalOptions& global) {
  struct Flags {
    std::string problem, dtype = "bf16,fp32", dims = "test";
    int world = 0, drawn = 1;
    const CLI::Option* dims_option = nullptr;
    bool all = false, json = false;
  };
  auto flags = std::make_shared<Flags>();
  app.add_option("problem", flags->problem, "Problem id or name");
  app.add_flag("--all", flags->all, "Validate every problem");
  app.add_option("--world", flags->world, "Only this world size (default: every one the problem allows)");
  app.add_option("--dtype", flags->dtype, "Run precisions, comma-separated (default bf16,fp32; with --all, each problem's own)");
  flags->dims_option = app.add_option("--dims", flags->dims, "Sizes: test, bench or NAME=SIZE,... (default test)");
  app.add_option("--drawn", flags->drawn,
                 "Also validate at this many shapes per W drawn under the size rules, unless --dims "
                 "is given (default 1)")
      ->check(CLI::Range(0, 100));
  app.add_flag("--json", flags->json, "Print one JSON document instead of the table");
  return [&global, flags] {
    if (flags->all == !flags->problem.empty())
      throw UsageError("validate: give either a problem or --all");
    const auto index = open_index(global);
    std::vector<problem::ProblemSpec> specs;
    if (flags->all) specs = index.load_all();
    else specs.push_back(index.load(index.resolve(flags->problem)));

    struct Case {
      const problem::ProblemSpec* spec;
      int world;
      DType dtype;
      std::map<std::string, std::int64_t> dims;
      bool drawn = false;  // sizes drawn under the size rules
    };
    std::vector<Case> cases;
    for (const auto& spec : specs) {
      if (flags->world > 0 && !flags->all) check_world(spec, flags->world);
      std::vector<int> worlds;
      for (int world : spec.world_sizes)
        if (flags->world <= 0 || world == flags->world) worlds.push_back(world);
      const auto dims = problem::select_dims(spec, flags->dims, problem::DimsBase::test, worlds);
      const int drawn = flags->dims_option->count() > 0 ? 0 : flags->drawn;
      for (int world : worlds)
        for (DType dtype : dtypes_of(spec, flags->dtype, flags->all)) {
          cases.push_back({&spec, world, dtype, dims, false});
          for (int k = 0; k < drawn; ++k)
            cases.push_back({&spec, world, dtype, problem::check_dims(spec, world, k), true});
        }
    }

    Progress progress("validate", static_cast<int>(cases.size()));
    std::vector<validate::CaseResult> results;
    for (const auto& item : cases) {
      results.push_back(validate::validate_case(*item.spec, item.world, item.dtype, item.dims));
      progress.step(!case_ok(results.back(), item.drawn));
    }
    progress.finish();

    int failed = 0;
    for (std::size_t i = 0; i < results.size(); ++i) failed += case_ok(results[i], cases[i].drawn) ? 0 : 1;
    if (flags->json) {
      nlohmann::ordered_json doc = {{"schema_version", 1}, {"cases", nlohmann::ordered_json::array()},
                                    {"passed", results.size() - failed}, {"failed", failed}};
      for (std::size_t i = 0; i < results.size(); ++i) doc["cases"].push_back(to_json(results[i], cases[i].drawn));
      std::cout << doc.dump(2) << "\n";
    } else {
      std::vector<std::string> header = {"problem", "W", "dtype", "dims"};
      for (auto mode : validate::all_modes()) header.push_back(validate::mode_name(mode));
      header.push_back("verdict");
      Table table(header);
      table.add_comment("dims: " + flags->dims + (flags->dims_option->count() > 0 || flags->drawn == 0 ? "" :
                        " and " + std::to_string(flags->drawn) + " shape(s) per W drawn under the size rules") +
                        "; perturbed modes must pass, broken modes must be caught");
      for (std::size_t i = 0; i < results.size(); ++i) {
        const auto& result = results[i];
        std::vector<std::string> row = {result.key, std::to_string(result.world),
                                        std::string(dtype_name(result.dtype)), dims_text(result.dims)};
        for (const auto& mode : result.modes) row.push_back(cell(mode, cases[i].drawn));
        row.push_back(case_ok(result, cases[i].drawn) ? "ok" : "FAILED");
        table.add_row(row);
      }
      table.set_verdict("validate: " + std::to_string(results.size() - failed) + " passed, " +
                        std::to_string(failed) + " failed");
      table.print(std::cout);
      for (std::size_t i = 0; i < results.size(); ++i)
        for (const auto& mode : results[i].modes)
          if (!mode.ok && (validate::must_pass(mode.mode) || !cases[i].drawn))
            std::cout << "# " << results[i].key << " W=" << results[i].world << " " << dtype_name(results[i].dtype)
                      << " " << dims_text(results[i].dims) << " "
                      << validate::mode_name(mode.mode) << ": " << (mode.detail.empty() ? "no outputs" : mode.detail)
                      << "\n";
    }
    if (failed > 0) throw WorkFailed(std::to_string(failed) + " validate cases failed");
    return 0;
  };
}

}  // namespace pkb::cli
