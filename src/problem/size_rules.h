// Size rules (problem.json "size_rules"): which sizes a problem may run at. Checked when a
// problem loads (every user rule at the test and bench dims for every allowed W), for a user's
// --dims (a usage error naming the rule and the problem) and for the sizes the shape sampler
// draws (src/problem/shape_sampler.h). Rules see the dims, W and the int scalars.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "src/problem/spec.h"

namespace pkb::problem {

/// Which rules apply: the user's (every size) or those and the drawn_only bounds (drawn sizes).
enum class RuleScope { user, drawn };

/// The names a rule may use: the dims, W and the int scalars.
std::set<std::string> size_rule_names(const ProblemSpec& spec);

/// dims + W + the int scalars' values.
ExprEnv size_rule_env(const ProblemSpec& spec, const std::map<std::string, std::int64_t>& dims,
                      int world);

/// The first rule in `scope` that `dims` break at `world` (or that cannot be evaluated there, a
/// division by zero); nullptr when all hold.
const SizeRule* broken_size_rule(const ProblemSpec& spec,
                                 const std::map<std::string, std::int64_t>& dims, int world,
                                 RuleScope scope = RuleScope::user);

/// "M % W == 0 (x is split into W equal row blocks, one per rank)".
std::string size_rule_text(const SizeRule& rule);

/// The user rules joined with "; ", for `pkb show` and the prompt ("" when there are none).
std::string size_rules_text(const ProblemSpec& spec);

/// Throws pkb::UsageError when `dims` break a user rule at `world`:
/// "--dims M=12,N=8: 033_name requires M % W == 0 (why) at W=8; M=12 N=8 breaks it".
void check_size_rules(const ProblemSpec& spec, const std::map<std::string, std::int64_t>& dims,
                      int world, const std::string& flag_text);

}  // namespace pkb::problem
