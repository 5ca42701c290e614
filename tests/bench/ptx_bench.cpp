// The simulated node's interpreter (harness/ptx) on three kernels NVRTC compiled with pkb.cuh:
// a peer-load all-reduce over 8 ranks, a shared-memory tiled matmul and a warp-shuffle reduction.
// The counter lane_instructions/s is what matters (the goal: 100 million per second on one core).
//   build-bench/tests/bench/ptx_bench   (scripts/bench.sh builds and runs it)
#include <benchmark/benchmark.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "harness/ptx/machine.h"
#include "harness/ptx/program.h"
#include "src/compile/compile.h"

namespace {

using pkb::ptx::Dim3;

std::shared_ptr<const pkb::ptx::Program> kernels() {
  static const auto program = [] {
    std::ifstream in(PKB_SOURCE_DIR "/tests/bench/data/ptx_kernels.cu");
    std::ostringstream text;
    text << in.rdbuf();
    pkb::compile::CompileOptions options;
    options.arch = "sm_90a";
    const auto compiled = pkb::compile::compile_cuda(text.str(), options);
    if (!compiled.ok) throw std::runtime_error("ptx_bench: the kernels do not compile:\n" + compiled.log);
    return pkb::ptx::load_program(compiled.ptx);
  }();
  return program;
}

// Host buffers registered on a machine, freed with it.
struct Node {
  explicit Node(int world) : machine(world, limits()) {
    for (int rank = 0; rank < world; ++rank) machine.load_module(rank, kernels());
  }
  static pkb::ptx::GpuLimits limits() {
    pkb::ptx::GpuLimits l;
    l.sms = 16;
    return l;
  }
  std::uint64_t alloc(int rank, std::size_t bytes) {
    blocks.push_back(std::make_unique<std::uint8_t[]>(bytes + 256));
    const auto raw = reinterpret_cast<std::uint64_t>(blocks.back().get());
    const std::uint64_t at = (raw + 255) / 256 * 256;
    machine.memory().add(at, bytes, rank, "buffer");
    return at;
  }
  void run() {
    while (machine.busy()) {
      const auto result = machine.run(~0ull);
      if (result.kind == pkb::ptx::RunResult::Kind::fault) throw std::runtime_error(result.fault->message);
      if (result.kind == pkb::ptx::RunResult::Kind::idle) throw std::runtime_error("ptx_bench: a kernel hung");
    }
  }
  pkb::ptx::Machine machine;
  std::vector<std::unique_ptr<std::uint8_t[]>> blocks;
};

template <class T>
std::string param(T value) {
  return std::string(reinterpret_cast<const char*>(&value), sizeof(T));
}

void report(benchmark::State& state, std::uint64_t lane_instructions) {
  state.counters["lane_instructions/s"] =
      benchmark::Counter(static_cast<double>(lane_instructions), benchmark::Counter::kIsRate);
}

void BM_PtxPeerAllReduce(benchmark::State& state) {
  constexpr int kWorld = 8;
  const long long n = state.range(0);
  std::uint64_t executed = 0;
  for (auto _ : state) {
    Node node(kWorld);
    std::string peers;
    std::vector<std::uint64_t> ys;
    for (int rank = 0; rank < kWorld; ++rank) peers += param(node.alloc(rank, static_cast<std::size_t>(n) * 2));
    for (int rank = 0; rank < kWorld; ++rank) ys.push_back(node.alloc(rank, static_cast<std::size_t>(n) * 2));
    for (int rank = 0; rank < kWorld; ++rank)
      node.machine.launch(rank, "peer_allreduce", {32, 1, 1}, {256, 1, 1}, {1, 1, 1}, 0, false,
                          {peers, param(ys[static_cast<std::size_t>(rank)]), param(n), param(kWorld)});
    node.run();
    executed += node.machine.stats().lane_instructions;
  }
  report(state, executed);
}
BENCHMARK(BM_PtxPeerAllReduce)->Arg(1 << 16)->Unit(benchmark::kMillisecond);

void BM_PtxTiledMatmul(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::uint64_t executed = 0;
  for (auto _ : state) {
    Node node(1);
    const std::size_t bytes = static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * 4;
    const std::uint64_t a = node.alloc(0, bytes), b = node.alloc(0, bytes), c = node.alloc(0, bytes);
    const auto tiles = static_cast<std::uint32_t>(n / 16);
    node.machine.launch(0, "tiled_matmul", {tiles, tiles, 1}, {16, 16, 1}, {1, 1, 1}, 0, false,
                        {param(a), param(b), param(c), param(n)});
    node.run();
    executed += node.machine.stats().lane_instructions;
  }
  report(state, executed);
}
BENCHMARK(BM_PtxTiledMatmul)->Arg(128)->Unit(benchmark::kMillisecond);

void BM_PtxWarpReduce(benchmark::State& state) {
  const long long n = state.range(0);
  std::uint64_t executed = 0;
  for (auto _ : state) {
    Node node(1);
    const std::uint64_t x = node.alloc(0, static_cast<std::size_t>(n) * 4), sum = node.alloc(0, 4);
    node.machine.launch(0, "warp_reduce", {64, 1, 1}, {256, 1, 1}, {1, 1, 1}, 0, false,
                        {param(x), param(sum), param(n)});
    node.run();
    executed += node.machine.stats().lane_instructions;
  }
  report(state, executed);
}
BENCHMARK(BM_PtxWarpReduce)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
