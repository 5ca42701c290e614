// `pkb reference P --world W [--dtype D] [--dims ...] [--trial t] [--device cpu|cuda] [--dump DIR]`:
// runs the C++ reference on W simulated ranks and prints every rank's output shapes and checksums,
// so two runs can be compared by eye; --dump writes the dump format of docs/ARCHITECTURE.md, "Dumps". `--batch FILE`
// writes many dumps in one process (reference_batch.h).
#include <chrono>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "reference/runner.h"
#include "reference/solve_nccl.h"
#include "src/cli/command.h"
#include "src/cli/problem_args.h"
#include "src/cli/reference_batch.h"
#include "src/cli/table.h"
#include "src/common/error.h"
#include "src/dump/dump_writer.h"
#include "src/problem/dims.h"

namespace pkb::cli {
namespace {

struct OutputSummary {
  int rank = 0;
  std::string name, dtype, checksum;
  std::vector<std::int64_t> shape;
  double sum = 0;
};

// FNV-1a over the bytes: equal checksums mean bit-identical outputs.
std::string checksum(const at::Tensor& tensor) {
  const at::Tensor cpu = tensor.to(at::kCPU).contiguous();
  const auto* bytes = static_cast<const unsigned char*>(cpu.data_ptr());
  std::uint64_t hash = 1469598103934665603ull;
  for (std::int64_t index = 0; index < cpu.numel() * cpu.element_size(); ++index) {
    hash ^= bytes[index];
    hash *= 1099511628211ull;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::vector<OutputSummary> summarize(const problem::ProblemSpec& spec, DType dtype,
                                     const std::vector<ref::Tensors>& outputs) {
  std::vector<OutputSummary> rows;
  for (std::size_t rank = 0; rank < outputs.size(); ++rank) {
    for (const auto& output : spec.outputs) {
      const at::Tensor& tensor = outputs[rank].at(output.name);
      rows.push_back({static_cast<int>(rank), output.name,
                      std::string(dtype_name(output.dtype.resolve(dtype))), checksum(tensor),
                      tensor.sizes().vec(), tensor.to(at::kDouble).sum().item<double>()});
    }
  }
  return rows;
}

}  // namespace

std::function<int()> setup_reference(CLI::App& app, const GlobalOptions& global) {
  struct Flags {
    std::string problem, dtype = "bf16", dims = "test", dump, device = "cpu", backend = "sim", batch;
    int world = 0, trial = 0;
    bool json = false;
  };
  auto flags = std::make_shared<Flags>();
  app.add_option("problem", flags->problem, "Problem id or name (e.g. 1, 001_allreduce)");
  app.add_option("--world", flags->world, "World size W, one the problem allows");
  app.add_option("--dtype", flags->dtype, "Run precision P: bf16, fp16 or fp32 (default bf16)");
  app.add_option("--dims", flags->dims, "Sizes: test, bench or NAME=SIZE,... (default test)");
  app.add_option("--trial", flags->trial, "Trial index: seeds the inputs (default 0)")->check(CLI::NonNegativeNumber);
  app.add_option("--device", flags->device, "Where the W simulated ranks run: cpu or cuda (one GPU) (default cpu)");
  app.add_option("--backend", flags->backend,
                 "sim: W simulated ranks on --device; nccl: one rank per GPU over NCCL (default sim)");
  app.add_option("--dump", flags->dump, "Write manifest.json and per-rank safetensors to this new folder");
  app.add_flag("--json", flags->json, "Print one JSON document instead of the table");
  app.add_option("--batch", flags->batch,
                 "Write many dumps in one process: FILE (or -) holds a JSON job per line (scripts/parity.py uses it)");
  return [&global, flags] {
    if (!flags->batch.empty()) {
      if (!flags->problem.empty()) throw UsageError("--batch " + flags->batch + ": the jobs name their problems; drop " + flags->problem);
      return run_reference_batch(flags->batch, global);
    }
    if (flags->problem.empty() || flags->world == 0)
      throw UsageError("reference: give a problem and --world W (or --batch FILE)");
    const auto index = open_index(global);
    const auto spec = index.load(index.resolve(flags->problem));
    check_world(spec, flags->world);
    ref::RunConfig config;
    config.world = flags->world;
    config.dtype = parse_run_dtype(spec, flags->dtype);
    config.dims = problem::select_dims(spec, flags->dims, problem::DimsBase::test, {config.world});
    config.trial = flags->trial;
    config.device = parse_device(flags->device);

    const auto start = std::chrono::steady_clock::now();
    const auto inputs = ref::make_rank_inputs(spec, config);
    if (flags->backend != "sim" && flags->backend != "nccl")
      throw UsageError("--backend " + flags->backend + ": expected sim or nccl");
    const auto outputs = flags->backend == "nccl" ? ref::solve_nccl(spec, config, inputs)
                                                  : ref::solve_simulated(spec, config, inputs, {});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    spdlog::info("reference: {} W={} {} in {:.3f} s", spec.key, config.world, dtype_name(config.dtype), seconds);
    if (!flags->dump.empty()) {
      try {
        dump::write_dump(flags->dump, spec, config, inputs, outputs);
      } catch (const InputError&) {
        throw;
      } catch (const std::exception& error) {
        throw Error("writing dump to " + flags->dump + ": " + error.what());
      }
      spdlog::info("reference: dump written to {}", flags->dump);
    }

    const auto rows = summarize(spec, config.dtype, outputs);
    if (flags->json) {
      nlohmann::ordered_json doc = {{"schema_version", 1}, {"key", spec.key}, {"world", config.world},
                                    {"dtype", dtype_name(config.dtype)}, {"dims", config.dims},
                                    {"trial", config.trial}, {"dump", flags->dump}};
      doc["outputs"] = nlohmann::ordered_json::array();
      for (const auto& row : rows)
        doc["outputs"].push_back({{"rank", row.rank}, {"name", row.name}, {"dtype", row.dtype},
                                  {"shape", row.shape}, {"sum", row.sum}, {"checksum", row.checksum}});
      std::cout << doc.dump(2) << "\n";
      return 0;
    }
    Table table({"rank", "output", "dtype", "shape", "sum", "checksum (fnv1a64)"});
    table.add_comment(spec.key + ": W=" + std::to_string(config.world) + " P=" +
                      std::string(dtype_name(config.dtype)) + " " + dims_text(config.dims) + " trial " +
                      std::to_string(config.trial) + (flags->backend == "nccl" ? " on W GPUs (NCCL)" : " on " + flags->device + " (simulated ranks)"));
    for (const auto& row : rows) {
      char sum[32];
      std::snprintf(sum, sizeof sum, "%.6g", row.sum);
      table.add_row({std::to_string(row.rank), row.name, row.dtype, shape_text(row.shape), sum, row.checksum});
    }
    table.print(std::cout);
    return 0;
  };
}

}  // namespace pkb::cli
