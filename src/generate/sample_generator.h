// One sample's generation, shared by `pkb generate` and `pkb run`: ask the model (or read the
// response cache), store the answer in the cache, extract the solution into
// solutions/PROBLEM/sample_K/, and describe it all in a generation record (status "generated",
// "format_error" or "api_error"). Writing the record is the caller's job.
#pragma once

#include <optional>

#include "src/generate/generator.h"
#include "src/results/record.h"

namespace pkb::generate {

/// Where a sample's conversation stands: turn 0 asks the problem's prompt; turn t > 0 sends the
/// earlier turns and the feedback on the last answer (src/run/conversation.h builds these).
struct TurnInput {
  int turn = 0;
  std::vector<model::ChatTurn> history;  // turns 0..turn-1
  std::string user;                      // empty: the problem's prompt
  int max_tokens = 0;                    // 0: the run's --max-tokens (a token budget lowers it)
};

class SampleGenerator {
 public:
  SampleGenerator(const GenerateConfig& config, model::ModelClient& client, GenerateStats& stats);
  /// The record, or nothing when the run was cancelled while the request was in flight (the
  /// sample is asked again on --resume). Throws pkb::Error only for pkb's own I/O failures.
  std::optional<results::Record> generate(const ProblemPrompt& problem, int sample, const TurnInput& turn = {});

 private:
  void describe_answer(const std::string& dir, const CacheEntry& entry, results::Record& record);
  void note_resolved_model(const std::string& model);

  const GenerateConfig& config_;
  model::ModelClient& client_;
  GenerateStats& stats_;
  ResponseCache cache_;
};

/// Counts a finished generation record into the progress counters (done, generated, failures).
void count_generated(const results::Record& record, GenerateStats& stats);

/// "solutions/001_allreduce/sample_3", relative to the results directory; a refinement turn
/// t > 0 adds "/turn_t".
std::string sample_dir(const std::string& problem_key, int sample, int turn = 0);

}  // namespace pkb::generate
