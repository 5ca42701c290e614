// BM_Reference/<problem>: one reference at test dims on W = 8 simulated CPU ranks (inputs + solve),
// and BM_AllReferences: every problem once, the total. Run through scripts/bench.sh.
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include "reference/runner.h"
#include "src/problem/problem_index.h"

namespace {

constexpr int kWorld = 8;

const pkb::problem::ProblemIndex& index() {
  static const pkb::problem::ProblemIndex problems(std::string(PKB_SOURCE_DIR) + "/problems");
  return problems;
}

void run_once(const pkb::problem::ProblemSpec& spec) {
  pkb::ref::RunConfig config{kWorld, pkb::DType::bf16, spec.test_dims, 0, at::kCPU};
  const auto inputs = pkb::ref::make_rank_inputs(spec, config);
  benchmark::DoNotOptimize(pkb::ref::solve_simulated(spec, config, inputs, {}));
}

void BM_Reference(benchmark::State& state, const pkb::problem::ProblemSpec spec) {
  for (auto _ : state) run_once(spec);
}

void BM_AllReferences(benchmark::State& state) {
  const auto specs = index().load_all();
  for (auto _ : state)
    for (const auto& spec : specs)
      if (spec.allows_world(kWorld)) run_once(spec);
  state.counters["problems"] = static_cast<double>(specs.size());
}

int register_all() {
  for (const auto& spec : index().load_all())
    if (spec.allows_world(kWorld))
      benchmark::RegisterBenchmark(("BM_Reference/" + spec.key).c_str(), BM_Reference, spec)
          ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_AllReferences", BM_AllReferences)->Unit(benchmark::kMillisecond);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  at::set_num_threads(1);  // as in pkb: simulated ranks are the parallelism
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
