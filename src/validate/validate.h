// `pkb validate` (docs/ADDING_A_PROBLEM.md, step 5): proves a problem's check tells right from wrong. The reference
// is run in perturbed modes that a correct kernel may match (other reduction orders, rounding
// after every hop), which must pass, and in broken modes (collectives skipped, outputs zero,
// outputs from another trial's inputs), which must fail.
#pragma once

#include <string>
#include <vector>

#include "reference/runner.h"
#include "src/check/compare.h"
#include "src/problem/spec.h"

namespace pkb::validate {

enum class Mode { reference, reversed, tree, hop_rounded, skip, zeros, other_trial };
const char* mode_name(Mode mode);
bool must_pass(Mode mode);  // reference and perturbed modes must pass; broken modes must fail
std::vector<Mode> all_modes();

struct ModeResult {
  Mode mode = Mode::reference;
  bool check_passed = false;  // what the correctness check said
  bool ok = false;            // check_passed == must_pass(mode)
  std::string detail;         // the first failing tensor's summary, or the worst passing one
};

struct CaseResult {
  std::string key;
  int world = 0;
  DType dtype = DType::fp32;
  std::map<std::string, std::int64_t> dims;  // the sizes it ran at
  std::vector<ModeResult> modes;
  bool ok() const;
};

/// Runs every mode for one problem, world size and dtype at the given dims.
CaseResult validate_case(const problem::ProblemSpec& spec, int world, DType dtype,
                         const std::map<std::string, std::int64_t>& dims);

}  // namespace pkb::validate
