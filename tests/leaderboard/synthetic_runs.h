// Results directories as a user's tree would hold them, written for the leaderboard's layout
// tests: 87 problems over the 10 real categories, models with long names, partial runs, runs
// judged on GPUs (timed) or on the simulated node (verdicts only). Built from the `basic`
// fixture's run.json and records (tests/score/data), with statuses from a fixed hash so that the
// page is the same on every run.
#pragma once

#include <filesystem>
#include <string>

namespace pkb::test {

inline constexpr int kAllProblems = 87;

struct SyntheticRun {
  std::string dir;        // under the root
  std::string model;      // fingerprint.model
  std::string hardware;   // hardware_key: "8x NVIDIA H200", or "simulated node"
  int first = 1, last = kAllProblems;  // the problems it ran (1-based, inclusive)
  int samples = 1;
  int skill = 50;         // percent of samples correct, roughly
  std::string started = "2026-11-20T10:00:00Z";
  std::string dims = "test";
  int sampled_last = kAllProblems;  // records only up to this problem (a run cut short)
  double sol_fraction = 0;          // > 0: each timed correct sample's speed-of-light fraction
};

/// "001_problem" .. "087_problem".
std::string synthetic_key(int problem);

/// Writes ROOT/run.dir/{run.json,samples.jsonl}.
void write_synthetic_run(const std::filesystem::path& root, const SyntheticRun& run);

/// A fresh tree (under a new temp dir) of partial runs: on 8x NVIDIA H200, two full runs of one
/// model (dims test and large; 30% and 20% correct) and partial runs of stronger models on 1-40
/// (95%) and 1-60 (90%); on the simulated node, a run listing 87 problems with samples for 5.
/// `samples` per problem. Returns the root.
std::filesystem::path partial_runs_tree(int samples);

}  // namespace pkb::test
