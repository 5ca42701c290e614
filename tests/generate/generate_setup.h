// What the generation tests share: a results directory under the temp dir, a client with short
// deadlines, a config of N made-up problems x K samples, and the records a run wrote.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "src/common/sha256.h"
#include "src/generate/generator.h"
#include "tests/model/fake_provider.h"

namespace pkb::generate::generate_test {

using test::FakeProvider;
namespace fake = test::fake;

inline const std::string kKey = "sk-test-NEVER-WRITTEN-42";
inline const std::string kAnswer =
    "```cuda\nextern \"C\" __global__ void k(float* y) {}\n```\n```json\n{\"steps\": []}\n```\n";

inline std::filesystem::path temp_dir(const std::string& tag) {
  std::random_device random;
  return std::filesystem::temp_directory_path() /
         ("pkb_gen_" + tag + "_" + std::to_string(random()));
}

inline model::ClientOptions fast_options() {
  model::ClientOptions options;
  options.timeouts = {1000, 300, 5000};
  options.max_attempts = 3;
  options.max_attempts_other = 2;
  options.backoff = {0.005, 0.02, 2.0};
  return options;
}

inline GenerateConfig config_for(const model::ModelSpec& spec, const std::filesystem::path& out,
                                 int problems, int samples) {
  GenerateConfig config;
  config.model = spec;
  config.params.max_tokens = 2000;
  config.params.temperature = "0.7";
  config.samples = samples;
  config.jobs = 4;
  config.out = out;
  config.fingerprint = {{"model", spec.text}, {"max_tokens", 2000}};
  for (int id = 1; id <= problems; ++id) {
    ProblemPrompt problem;
    problem.key = "00" + std::to_string(id) + "_p";
    problem.id = id;
    problem.world = 8;
    problem.prompt.text = "prompt of problem " + std::to_string(id);
    problem.prompt.sha256 = sha256_hex(problem.prompt.text);
    config.problems.push_back(problem);
  }
  return config;
}

inline std::vector<nlohmann::json> records(const std::filesystem::path& out) {
  std::vector<nlohmann::json> lines;
  std::ifstream in(out / "samples.jsonl");
  std::string line;
  while (std::getline(in, line)) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

}  // namespace pkb::generate::generate_test
