// Size rules: loaded and checked with problem.json (each rule parses, names known names, holds at
// the test and bench dims for every W), the --dims check that names the rule and the problem, and
// the shape sampler that draws sizes under them.
#include "src/problem/size_rules.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/problem/dims.h"
#include "src/problem/shape_sampler.h"
#include "src/problem/spec_loader.h"

namespace pkb::problem {
namespace {

nlohmann::json with_rules(const nlohmann::json& rules) {
  nlohmann::json doc = nlohmann::json::parse(R"({
    "schema_version": 1, "id": 33, "name": "demo", "category": "collective",
    "summary": "a demo", "dims": {"M": 1024, "N": 1024}, "test_dims": {"M": 16, "N": 8},
    "world_sizes": [2, 4, 8], "dtypes": ["bf16"],
    "inputs": [{"name": "x", "dtype": "P", "shape": ["M", "N"]}],
    "outputs": [{"name": "y", "dtype": "P", "shape": ["M / W", "W * N"]}],
    "scalars": [{"name": "block", "type": "int", "value": 4}],
    "tolerance": {"bf16": {"atol": 0, "rtol": 0}}
  })");
  doc["size_rules"] = rules;
  return doc;
}

ProblemSpec demo() {
  return parse_problem(with_rules(nlohmann::json::parse(R"([
    {"rule": "M % W == 0", "why": "x is split into W equal row blocks"},
    {"rule": "N % block == 0", "why": "rows are read in blocks"},
    {"rule": "M * N <= 4096", "why": "keeps a simulated trial cheap", "drawn_only": true}
  ])")).dump(), "p.json", "");
}

std::string load_error(const nlohmann::json& rules) {
  try {
    parse_problem(with_rules(rules).dump(), "p.json", "");
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(SizeRules, LoadWithTheirWhyAndScope) {
  const ProblemSpec spec = demo();
  ASSERT_EQ(spec.size_rules.size(), 3u);
  EXPECT_EQ(spec.size_rules[0].rule.text(), "M % W == 0");
  EXPECT_FALSE(spec.size_rules[0].drawn_only);
  EXPECT_TRUE(spec.size_rules[2].drawn_only);
  EXPECT_EQ(size_rules_text(spec),
            "M % W == 0 (x is split into W equal row blocks); N % block == 0 (rows are read in blocks)");
}

TEST(SizeRules, LoaderRejectsBadRulesNamingTheField) {
  EXPECT_EQ(load_error(nlohmann::json::parse(R"([{"rule": "M % Q == 0"}])")),
            "p.json: size_rules[0].rule: expected an expression over the dims, W and the int scalars, "
            "got unknown name 'Q'");
  EXPECT_EQ(load_error(nlohmann::json::parse(R"([{"rule": "M %% 2"}])")).rfind("p.json: size_rules[0].rule: expected a valid expression", 0), 0u);
  // A user rule must hold at the bench dims, at every W.
  EXPECT_EQ(load_error(nlohmann::json::parse(R"([{"rule": "M <= 64", "why": "small"}])")),
            "p.json: size_rules[0].rule: expected a rule the bench dims satisfy at every allowed W (or "
            "\"drawn_only\": true), got 'M <= 64' breaks at W=2 M=1024 N=1024");
  // ... and at the test dims; a drawn_only one only there.
  EXPECT_EQ(load_error(nlohmann::json::parse(R"([{"rule": "M % (4 * W) == 0"}])")),
            "p.json: size_rules[0].rule: expected a rule the test dims satisfy at every allowed W, got "
            "'M % (4 * W) == 0' breaks at W=8 M=16 N=8");
  EXPECT_EQ(load_error(nlohmann::json::parse(R"([{"rule": "M <= 64", "drawn_only": true}])")), "no error");
  EXPECT_EQ(load_error(nlohmann::json::parse(R"([{"rule": "M > 0", "when": 1}])")).rfind("p.json: size_rules[0]", 0), 0u);
}

TEST(SizeRules, DimsThatBreakARuleAreAUsageErrorNamingRuleAndProblem) {
  const ProblemSpec spec = demo();
  try {
    select_dims(spec, "M=12,N=8", DimsBase::bench, {8});
    FAIL() << "expected a usage error";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "--dims M=12,N=8: 033_demo requires M % W == 0 (x is split into W equal row blocks) "
                 "at W=8; M=12 N=8 breaks it");
  }
  EXPECT_EQ(select_dims(spec, "M=12,N=8", DimsBase::bench, {2, 4}).at("M"), 12);
  // drawn_only bounds never apply to a user's sizes.
  EXPECT_EQ(select_dims(spec, "bench", DimsBase::test, {8}).at("M"), 1024);
  EXPECT_NE(broken_size_rule(spec, spec.dims, 8, RuleScope::drawn), nullptr);
  EXPECT_EQ(broken_size_rule(spec, spec.dims, 8, RuleScope::user), nullptr);
}

TEST(ShapeSampler, DrawsUnderEveryRuleAndTheSameForTheSameSeed) {
  const ProblemSpec spec = demo();
  for (int world : {2, 4, 8})
    for (std::uint64_t seed = 1; seed < 60; ++seed)
      for (DrawKind kind : {DrawKind::large, DrawKind::smallest, DrawKind::unaligned}) {
        const auto dims = draw_dims(spec, world, seed, kind);
        EXPECT_EQ(broken_size_rule(spec, dims, world, RuleScope::drawn), nullptr)
            << "W=" << world << " seed " << seed << " " << draw_kind_name(kind);
        EXPECT_EQ(dims, draw_dims(spec, world, seed, kind));
      }
}

TEST(ShapeSampler, ReachesTheSmallestLargeAndUnalignedSizes) {
  ProblemSpec spec = demo();
  // The smallest the rules allow: M = W, N = block.
  EXPECT_EQ(draw_dims(spec, 8, 3, DrawKind::smallest), (std::map<std::string, std::int64_t>{{"M", 8}, {"N", 4}}));
  // Large draws come close to the drawn_only bound.
  for (std::uint64_t seed = 1; seed < 40; ++seed) {
    const auto dims = draw_dims(spec, 2, seed, DrawKind::large);
    EXPECT_GT(dims.at("M") * dims.at("N"), 4096 / 2) << "seed " << seed;
  }
  // Without divisibility rules, sizes are not multiples of the pack, the warp or the block.
  spec.size_rules.erase(spec.size_rules.begin(), spec.size_rules.begin() + 2);
  int unaligned = 0, smallest_one = 0;
  for (std::uint64_t seed = 1; seed < 40; ++seed) {
    const auto large = draw_dims(spec, 8, seed, DrawKind::large);
    if ((large.at("M") * large.at("N")) % 8 != 0) ++unaligned;
    const auto small = draw_dims(spec, 8, seed, DrawKind::smallest);
    if (small.at("M") == 1 && small.at("N") == 1) ++smallest_one;
    const auto odd = draw_dims(spec, 8, seed, DrawKind::unaligned);
    EXPECT_NE((odd.at("M") * odd.at("N")) % 32, 0) << "seed " << seed;
  }
  EXPECT_GT(unaligned, 20);
  EXPECT_EQ(smallest_one, 39);
}

}  // namespace
}  // namespace pkb::problem
