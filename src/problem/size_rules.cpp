// Size rules: evaluation, text and the --dims check (see size_rules.h).
#include "src/problem/size_rules.h"

#include "src/common/error.h"

namespace pkb::problem {

std::set<std::string> size_rule_names(const ProblemSpec& spec) {
  std::set<std::string> names = {"W"};
  for (const auto& [name, size] : spec.dims) names.insert(name);
  for (const auto& scalar : spec.scalars)
    if (scalar.type == ScalarType::int64) names.insert(scalar.name);
  return names;
}

ExprEnv size_rule_env(const ProblemSpec& spec, const std::map<std::string, std::int64_t>& dims,
                      int world) {
  ExprEnv env(dims.begin(), dims.end());
  env["W"] = world;
  for (const auto& scalar : spec.scalars)
    if (scalar.type == ScalarType::int64) env[scalar.name] = static_cast<std::int64_t>(scalar.value);
  return env;
}

const SizeRule* broken_size_rule(const ProblemSpec& spec,
                                 const std::map<std::string, std::int64_t>& dims, int world,
                                 RuleScope scope) {
  const ExprEnv env = size_rule_env(spec, dims, world);
  for (const auto& rule : spec.size_rules) {
    if (rule.drawn_only && scope == RuleScope::user) continue;
    try {
      if (rule.rule.eval(env) == 0) return &rule;
    } catch (const Error&) {
      return &rule;  // a division by zero or an overflow: these sizes cannot satisfy it
    }
  }
  return nullptr;
}

std::string size_rule_text(const SizeRule& rule) {
  return rule.rule.text() + (rule.why.empty() ? "" : " (" + rule.why + ")");
}

std::string size_rules_text(const ProblemSpec& spec) {
  std::string out;
  for (const auto& rule : spec.size_rules)
    if (!rule.drawn_only) out += (out.empty() ? "" : "; ") + size_rule_text(rule);
  return out;
}

void check_size_rules(const ProblemSpec& spec, const std::map<std::string, std::int64_t>& dims,
                      int world, const std::string& flag_text) {
  const SizeRule* broken = broken_size_rule(spec, dims, world);
  if (!broken) return;
  std::string sizes;
  for (const auto& [name, size] : dims)
    sizes += (sizes.empty() ? "" : " ") + name + "=" + std::to_string(size);
  throw UsageError("--dims " + flag_text + ": " + spec.key + " requires " +
                   size_rule_text(*broken) + " at W=" + std::to_string(world) + "; " + sizes +
                   " breaks it");
}

}  // namespace pkb::problem
