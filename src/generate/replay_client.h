// replay:DIR as a model: answers come from DIR/responses/ (the cache a generation wrote), matched
// by prompt hash and sample index, so evaluation can run where no API is reachable.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "src/model/model_client.h"

namespace pkb::generate {

class ReplayClient : public model::ModelClient {
 public:
  /// Throws pkb::UsageError naming --model when DIR has no responses/ folder.
  explicit ReplayClient(const std::filesystem::path& dir);
  model::ModelOutcome generate(const model::ModelRequest& request) override;
  std::size_t size() const { return index_.size(); }

 private:
  std::filesystem::path dir_;
  std::map<std::pair<std::string, int>, std::filesystem::path>
      index_;  // (prompt sha256, sample) -> file
};

}  // namespace pkb::generate
