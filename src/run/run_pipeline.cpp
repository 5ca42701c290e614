// The run: check and lock the directory, find what an earlier process finished, write run.json,
// then J generation threads hand each answer to the evaluator as soon as it is extracted.
#include "src/run/run_pipeline.h"

#include <thread>

#include "src/generate/durable_file.h"
#include "src/generate/response_cache.h"
#include "src/generate/run_lock.h"
#include "src/generate/sample_generator.h"
#include "src/generate/samples_log.h"

namespace pkb::run {

RunSummary run_pipeline(const RunConfig& config, model::ModelClient& client,
                        generate::GenerateStats& generation_stats, RunStats& stats) {
  const auto& generation = config.generation;
  generate::check_out_dir(generation);
  generate::RunLock lock(generation.out);
  const std::string started = generate::utc_now_iso();
  const auto samples_path = generation.out / "samples.jsonl";
  const generate::ResumeState resume = generate::prepare_resume(samples_path);

  struct Item {
    const generate::ProblemPrompt* problem;
    int sample;
  };
  std::vector<std::string> keys;
  for (const auto& problem : generation.problems) keys.push_back(problem.key);
  const shard::ShardFilter in_shard(keys, generation.samples, generation.shard);
  std::vector<Item> work;
  for (const auto& problem : generation.problems)
    for (int sample = 0; sample < generation.samples; ++sample)
      if (in_shard.owns(problem.key, sample) && !resume.finished.count({problem.key, sample}))
        work.push_back({&problem, sample});
  const int resumed = static_cast<int>(resume.finished.size());
  stats.total = static_cast<int>(work.size()) + resumed;
  stats.resumed = resumed;
  generation_stats.total = static_cast<int>(work.size());

  nlohmann::json doc = run_json(generation.run_info, "run", config.context, started);
  doc["fingerprint"] = generation.fingerprint;
  doc["samples_per_problem"] = generation.samples;
  doc["problems"] = config.problems;
  doc["resumed_samples"] = resumed;
  if (!generation.shard.whole()) doc["shard"] = shard::shard_json(generation.shard);
  generate::write_file_atomic(generation.out / "run.json", doc.dump(2) + "\n");

  generate::SamplesLog log(samples_path);
  Evaluator evaluator(config.eval, log, stats);
  std::atomic<std::size_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr first_error;
  auto generate_loop = [&] {
    generate::SampleGenerator generator(generation, client, generation_stats);
    while (!(generation.cancel && generation.cancel->load())) {
      const std::size_t index = next++;
      if (index >= work.size()) return;
      try {
        nlohmann::json record = generator.generate(*work[index].problem, work[index].sample);
        if (record.is_null()) continue;  // cancelled in flight: asked again on --resume
        generate::count_generated(record, generation_stats);
        evaluator.submit(std::move(record));
      } catch (...) {  // pkb's own I/O failure: stop, keep what is recorded
        std::lock_guard<std::mutex> guard(error_mutex);
        if (!first_error) first_error = std::current_exception();
        next = work.size();
      }
    }
  };
  std::vector<std::thread> threads;
  const int jobs = std::max(1, std::min<int>(generation.jobs, static_cast<int>(work.size())));
  for (int index = 0; index < jobs; ++index) threads.emplace_back(generate_loop);
  for (auto& thread : threads) thread.join();
  evaluator.finish();
  if (first_error) std::rethrow_exception(first_error);

  RunSummary summary;
  summary.resumed = resumed;
  summary.cancelled = generation.cancel && generation.cancel->load();
  summary.summary = summary_json(samples_path);
  summary.summary["resumed"] = resumed;
  summary.summary["cancelled"] = summary.cancelled;
  doc["finished"] = generate::utc_now_iso();
  doc["summary"] = summary.summary;
  generate::write_file_atomic(generation.out / "run.json", doc.dump(2) + "\n");
  return summary;
}

}  // namespace pkb::run
