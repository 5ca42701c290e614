// BM_Generate/<samples>/<jobs>: pkb's generation loop against the fake provider on loopback
// answering every request after 50 ms. Ideal wall time = samples x 50 ms / jobs; the counters give
// measured / ideal and the process's peak resident memory. Run through scripts/bench.sh, or
// build-bench/tests/bench/generate_bench directly.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <random>

#include "src/common/sha256.h"
#include "src/generate/generator.h"
#include "tests/model/fake_provider.h"

namespace {

constexpr int kLatencyMs = 50;  // the benchmark: 50 ms per answer
constexpr int kSamplesPerPrompt = 8;

const std::string kAnswer =
    "Explanation of the kernel.\n```cuda\nextern \"C\" __global__ void k(float* y) { "
    "y[threadIdx.x] = 0; }\n```\n"
    "```json\n{\"buffers\": [], \"steps\": []}\n```\n";

pkb::generate::GenerateConfig make_config(const pkb::model::ModelSpec& spec,
                                          const std::filesystem::path& out, int samples, int jobs) {
  pkb::generate::GenerateConfig config;
  config.model = spec;
  config.params.max_tokens = 32000;
  config.samples = kSamplesPerPrompt;
  config.jobs = jobs;
  config.out = out;
  config.fingerprint = {{"model", spec.text}};
  for (int id = 1; id <= samples / kSamplesPerPrompt; ++id) {
    pkb::generate::ProblemPrompt problem;
    problem.key = std::to_string(100 + id) + "_bench";
    problem.id = id;
    problem.world = 8;
    problem.prompt.text =
        std::string(20000, 'p') + std::to_string(id);  // a prompt of realistic size
    problem.prompt.sha256 = pkb::sha256_hex(problem.prompt.text);
    config.problems.push_back(problem);
  }
  return config;
}

void BM_Generate(benchmark::State& state) {
  const int samples = static_cast<int>(state.range(0)), jobs = static_cast<int>(state.range(1));
  pkb::test::FakeProvider server;
  server.set_default([](const pkb::test::SeenRequest&) {
    auto reply = pkb::test::fake::chat_stream(kAnswer);
    reply.latency_ms = kLatencyMs;
    return reply;
  });
  const auto spec = pkb::model::parse_model_name("openai-compat:bench", server.base_url());
  pkb::model::ClientOptions options;
  options.max_in_flight = jobs;
  std::random_device random;
  const auto root =
      std::filesystem::temp_directory_path() / ("pkb_generate_bench_" + std::to_string(random()));
  int run = 0;
  double total_s = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    pkb::model::HttpModelClient client(spec, "", options);
    pkb::generate::GenerateStats stats;
    const auto summary = pkb::generate::run_generation(
        make_config(spec, root / std::to_string(run++), samples, jobs), client, stats);
    total_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (summary.generated != samples) state.SkipWithError("not every sample was generated");
  }
  std::filesystem::remove_all(root);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double ideal_s = samples * kLatencyMs / 1000.0 / jobs;
  state.counters["ideal_s"] = ideal_s;
  state.counters["measured_over_ideal"] = total_s / run / ideal_s;
  state.counters["peak_rss_MiB"] = usage.ru_maxrss / 1024.0;
}

}  // namespace

BENCHMARK(BM_Generate)
    ->Args({200, 32})
    ->Args({32, 1})
    ->Args({64, 8})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK_MAIN();
