// replay:DIR as a model, so evaluation can run where no API is reachable. Answers come from
//   DIR/responses/  the cache a generation wrote, matched by the hash of the conversation
//                   (model::conversation_sha256) and the sample index;
//   DIR/answers/KEY/sample_K.md, sample_K.turn_T.md  hand-written answers, matched by problem key,
//                   sample index and refinement turn (T > 0), so they survive changes to the
//                   prompt's bytes (examples/replay holds these);
//   DIR/replay.json {"problem_answers": "PATH"}: PATH/KEY/answer.md, each problem's reference
//                   answer (relative to DIR), for every sample of a problem with no folder in
//                   answers/ (first turns only), so the bundled default covers every problem.
// The cache wins where both match: it is the exact answer to this exact prompt.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "src/model/model_client.h"

namespace pkb::generate {

class ReplayClient : public model::ModelClient {
 public:
  /// Throws pkb::UsageError naming --model when DIR has neither responses/ nor answers/.
  explicit ReplayClient(const std::filesystem::path& dir);
  /// The problem key is read from request.label ("001_allreduce#3"), which the generator sets.
  model::ModelOutcome generate(const model::ModelRequest& request) override;
  std::size_t size() const { return index_.size() + answers_.size() + problem_answers_.size(); }
  /// Whether DIR holds any answer for this problem (by key) or this prompt (by hash).
  bool covers(const std::string& problem_key, const std::string& prompt_sha256) const;

 private:
  model::ModelOutcome from_answer(const std::filesystem::path& file) const;

  std::filesystem::path dir_;
  std::map<std::pair<std::string, int>, std::filesystem::path>
      index_;  // (prompt sha256, sample) -> cache file
  std::map<std::tuple<std::string, int, int>, std::filesystem::path>
      answers_;  // (problem key, sample, turn) -> answers/KEY/sample_K[.turn_T].md
  std::map<std::string, std::filesystem::path> problem_answers_;  // key -> PATH/KEY/answer.md
  /// The problem's reference answer when it has one and no folder under answers/.
  const std::filesystem::path* problem_answer(const std::string& problem_key) const;
};

/// Resolves the DIR of replay:DIR: as given when it exists there, else against `source_root` (so
/// `build/pkb run --model replay:examples/replay` works from any directory of a source checkout).
std::filesystem::path resolve_replay_dir(const std::string& dir,
                                         const std::filesystem::path& source_root);

}  // namespace pkb::generate
