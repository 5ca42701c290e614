// The run: check and lock the directory, find what an earlier process finished, write run.json,
// then J generation threads hand each answer to the evaluator as soon as it is extracted.
#include "src/run/run_pipeline.h"

#include <chrono>
#include <thread>

#include "src/common/error.h"
#include "src/results/durable_file.h"
#include "src/results/run_file.h"
#include "src/generate/response_cache.h"
#include "src/results/run_lock.h"
#include "src/generate/sample_generator.h"
#include "src/results/samples_file.h"

namespace pkb::run {

RunSummary run_pipeline(const RunConfig& config, model::ModelClient& client,
                        generate::GenerateStats& generation_stats, RunStats& stats) {
  const auto& generation = config.generation;
  generate::check_out_dir(generation);
  results::RunLock lock(generation.out);
  const std::string started = results::utc_now_iso();
  const auto samples_path = generation.out / "samples.jsonl";
  const results::ResumeState resume = results::prepare_resume(samples_path);

  if (!config.feedback_template) throw Error("run: no feedback template");
  Conversations conversations(config.turns, generation.out, *config.feedback_template);
  std::vector<std::string> keys;
  for (const auto& problem : generation.problems) keys.push_back(problem.key);
  const shard::ShardFilter in_shard(keys, generation.samples, generation.shard);
  int pending = 0;
  for (const auto& problem : generation.problems)
    for (int sample = 0; sample < generation.samples; ++sample) {
      if (!in_shard.owns(problem.key, sample) || resume.finished.count({problem.key, sample}))
        continue;
      const auto unfinished = resume.unfinished.find({problem.key, sample});
      if (unfinished != resume.unfinished.end()) {
        conversations.start(
            resume_conversation(problem, sample, unfinished->second, generation.out, config.turns));
      } else {
        Conversation conversation;
        conversation.problem = &problem;
        conversation.sample = sample;
        conversations.start(std::move(conversation));
      }
      ++pending;
    }
  const int resumed = static_cast<int>(resume.finished.size());
  stats.total = pending + resumed;
  stats.resumed = resumed;
  generation_stats.total = pending;
  if (pending == 0) conversations.close();

  nlohmann::json doc = run_json(generation.run_info, "run", config.context, started);
  doc["fingerprint"] = generation.fingerprint;
  doc["samples_per_problem"] = generation.samples;
  doc["problems"] = results::to_json(config.problems);
  doc["resumed_samples"] = resumed;
  if (!resume.unfinished.empty())
    doc["resumed_conversations"] = static_cast<int>(resume.unfinished.size());
  if (!generation.shard.whole()) doc["shard"] = shard::shard_json(generation.shard);
  results::write_run_file(generation.out, doc);

  results::SamplesLog log(samples_path);
  EvalSettings eval = config.eval;
  eval.annotate = [&](results::Record& record, const std::string& compile_log) {
    return conversations.annotate(record, compile_log);
  };
  eval.written = [&](const results::Record& record) { conversations.written(record); };
  Evaluator evaluator(eval, log, stats);
  std::mutex error_mutex;
  std::exception_ptr first_error;
  std::atomic<bool> failed{false};
  auto cancelled = [&] { return failed || (generation.cancel && generation.cancel->load()); };
  auto generate_loop = [&] {
    generate::SampleGenerator generator(generation, client, generation_stats);
    while (auto conversation = conversations.next()) {
      if (cancelled()) {  // not asked: --resume continues the conversation here
        conversations.dropped();
        continue;
      }
      try {
        auto record =
            generator.generate(*conversation->problem, conversation->sample, conversation->next);
        if (!record) {  // cancelled in flight: asked again on --resume
          conversations.dropped();
          continue;
        }
        if (conversation->next.turn == 0) generate::count_generated(*record, generation_stats);
        conversations.asked(std::move(*conversation));
        evaluator.submit(std::move(*record));
      } catch (...) {  // pkb's own failure: stop, keep what is recorded
        std::lock_guard<std::mutex> guard(error_mutex);
        if (!first_error) first_error = std::current_exception();
        failed = true;
        conversations.close();
      }
    }
  };
  std::vector<std::thread> threads;
  const int jobs = std::max(1, std::min<int>(generation.jobs, pending));
  for (int index = 0; index < jobs; ++index) threads.emplace_back(generate_loop);
  // The queue closes itself when the last conversation ends; a cancel or a failed evaluator
  // (which records nothing more) must close it from here, or the workers would wait forever.
  while (!conversations.over() && !cancelled() && !evaluator.failed())
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (!conversations.over()) conversations.close();
  for (auto& thread : threads) thread.join();
  evaluator.finish();
  if (first_error) std::rethrow_exception(first_error);

  return finish_run_file(generation.out, doc, resumed,
                         generation.cancel && generation.cancel->load());
}

}  // namespace pkb::run
