// What the `pkb run` end-to-end tests share: the command line over the bundled replay answers,
// reading results back, the statuses examples/replay/expected.json promises, and one
// uninterrupted run per test process to compare against.
#pragma once

#include <sys/types.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace pkb::test {

using SampleKey = std::pair<std::string, int>;

/// "-q run --model replay:examples/replay --samples 4 --dims test --out 'OUT' EXTRA". Sets
/// PKB_CACHE_DIR to a folder of this process first, so the tests never touch ~/.cache.
std::string run_args(const std::string& out, const std::string& extra = "");

/// Starts `pkb ARGS` (with the source tree's problems) in the background, output discarded, for
/// tests that kill it; returns its pid.
::pid_t spawn_pkb(const std::string& args);
nlohmann::json read_json(const std::string& path);

/// (problem, sample) -> status promised by examples/replay/expected.json, and `correct` for every
/// sample of 005 and 006 (their reference answers). The same with or without a GPU: where there is
/// none, the simulated node judges.
std::map<SampleKey, std::string> expected_statuses();

struct Baseline {
  std::string out;
  std::map<SampleKey, std::string> statuses;  // from its samples.jsonl
  double seconds = 0;
  int exit_code = -1;
  std::string err;
};

/// One complete run, made on first use and kept for the process.
const Baseline& uninterrupted_run();

}  // namespace pkb::test
