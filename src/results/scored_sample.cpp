#include "src/results/scored_sample.h"

namespace pkb::results {

ScoredSample scored_sample(const Record& record, const std::string& file, int line,
                           std::string text) {
  ScoredSample sample;
  sample.problem = record.problem;
  sample.sample = record.sample;
  sample.turn = record.turn;
  sample.status = record.status;
  sample.latency_s = record.latency_s;
  if (const auto tokens = record.output_tokens())
    sample.output_tokens = static_cast<double>(*tokens);
  if (const auto& evaluation = record.evaluation) {
    sample.category = evaluation->category;
    sample.speedup = evaluation->speedup;
    sample.sol_fraction = evaluation->sol_fraction;
    sample.flagged = evaluation->suspicious_fast;
    sample.simulated = evaluation->eval && evaluation->eval->judged_by == std::optional<std::string>("sim");
    if (const auto timing = timing_summary(evaluation->timing)) {
      sample.emulated = timing->emulated;
      // The worker's own bound, in records written before src/sol judged the speed of light alone.
      sample.flagged = sample.flagged || timing->sol_flag;
    }
  }
  sample.file = file;
  sample.line = line;
  sample.text = std::move(text);
  return sample;
}

}  // namespace pkb::results
