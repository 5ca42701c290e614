// run_reference_batch: the jobs of a batch file, one after another, each isolated by its own
// try block, each answered on stdout as soon as its dump is complete.
#include "src/cli/reference_batch.h"

#include <chrono>
#include <fstream>
#include <iostream>

#include <ATen/Context.h>
#include <nlohmann/json.hpp>

#include "reference/runner.h"
#include "src/cli/problem_args.h"
#include "src/common/error.h"
#include "src/dump/dump_writer.h"
#include "src/problem/dims.h"
#include "src/problem/shape_sampler.h"

namespace pkb::cli {
namespace {

struct BatchJob {
  int index = 0;
  std::string problem, dtype, dims, dump, device;
  int world = 0;
  int drawn = -1;  // >= 0: at the drawn check shape k (problem::check_dims) instead of `dims`
};

BatchJob parse_job(const std::string& line, const std::string& where) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(line);
    BatchJob job;
    job.index = doc.at("index").get<int>();
    job.problem = doc.at("problem").get<std::string>();
    job.world = doc.at("world").get<int>();
    job.dtype = doc.at("dtype").get<std::string>();
    job.dims = doc.value("dims", std::string("test"));
    job.dump = doc.value("dump", std::string());
    job.device = doc.value("device", std::string("cpu"));
    job.drawn = doc.value("drawn", -1);
    return job;
  } catch (const nlohmann::json::exception& error) {
    throw InputError(where + ": expected {\"index\", \"problem\", \"world\", \"dtype\", \"dims\", \"dump\", "
                     "\"device\", \"drawn\"}: " + error.what());
  }
}

void run_job(const problem::ProblemIndex& index, const BatchJob& job) {
  const auto spec = index.load(index.resolve(job.problem));
  check_world(spec, job.world);
  ref::RunConfig config;
  config.world = job.world;
  config.dtype = parse_run_dtype(spec, job.dtype);
  config.dims = job.drawn >= 0 ? problem::check_dims(spec, job.world, job.drawn)
                               : problem::select_dims(spec, job.dims, problem::DimsBase::test, {config.world});
  config.device = parse_device(job.device);
  const auto inputs = ref::make_rank_inputs(spec, config);
  const auto outputs = ref::solve_simulated(spec, config, inputs, {});
  if (!job.dump.empty()) dump::write_dump(job.dump, spec, config, inputs, outputs);
}

}  // namespace

at::Device parse_device(const std::string& text) {
  if (text == "cpu") return at::kCPU;
  if (text == "cuda") {
    if (!at::hasCUDA()) throw UsageError("--device cuda: this libtorch has no CUDA (or no GPU is visible)");
    return at::Device(at::kCUDA, 0);
  }
  throw UsageError("--device " + text + ": expected cpu or cuda");
}

int run_reference_batch(const std::string& file, const GlobalOptions& global) {
  std::ifstream opened;
  if (file != "-") {
    opened.open(file);
    if (!opened) throw UsageError("--batch " + file + ": cannot read");
  }
  std::istream& in = file == "-" ? std::cin : opened;
  const auto index = open_index(global);
  int failed = 0, line_number = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const BatchJob job = parse_job(line, (file == "-" ? "stdin" : file) + ":" + std::to_string(line_number));
    nlohmann::json answer = {{"index", job.index}, {"ok", true}};
    const auto start = std::chrono::steady_clock::now();
    try {
      run_job(index, job);
      answer["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } catch (const std::exception& error) {
      answer["ok"] = false;
      answer["error"] = error.what();
      ++failed;
    }
    std::cout << answer.dump() << std::endl;  // flushed: the caller starts on this dump now
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace pkb::cli
