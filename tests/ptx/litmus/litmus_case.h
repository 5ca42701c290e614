// One litmus test translated from a published suite (tests/ptx/litmus/cases/*.litmus, format in
// README.md): where it comes from, its threads and where each runs (rank, block, thread), its
// locations, each thread's PTX body, the outcome the memory model rules on, the model's verdict,
// and whether the test has a data race under the PTX memory model.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pkb::ptx_test {

struct LitmusThread {
  std::string name;  // "P0", as in the source file
  int rank = 0, block = 0, thread = 0;
  std::vector<std::string> body;  // PTX lines; a location is written [name]
};

/// One side of a comparison: a thread's register (`P1:r2`), a location's final value (`x`) or a
/// number.
struct LitmusValue {
  enum class Kind { reg, location, number } kind = Kind::number;
  int thread = 0;  // index into LitmusCase::threads
  int reg = 0;
  int location = 0;  // index into LitmusCase::locations
  std::uint32_t number = 0;
};

struct LitmusTerm {
  LitmusValue left, right;
  bool equal = true;  // == or !=
};

/// A disjunction of conjunctions (`a == 1 && b != 1 || c == 2`).
using LitmusCondition = std::vector<std::vector<LitmusTerm>>;

enum class LitmusRace { none, warning, error };

struct LitmusLocation {
  std::string name;
  std::uint32_t initial = 0;
};

struct LitmusCase {
  std::string file;     // the case file's name
  std::string source;   // "owner/repo path/in/repo"
  std::string commit;
  std::vector<LitmusLocation> locations;
  int home = 0;  // the rank whose memory holds the locations
  bool shared = false;  // space: shared (the block's shared memory; every thread in block 0 of rank 0)
  std::vector<LitmusThread> threads;
  LitmusCondition weak;  // the outcome the model rules on
  std::string weak_text;
  bool forbidden = false;  // model: forbidden (true) or allowed
  LitmusRace race = LitmusRace::none;
  std::string disagreement;  // expect_detector_disagreement: why ("" when none)

  int world() const;
  int blocks() const;
  int threads_per_block() const;
};

/// Reads a case file; throws std::runtime_error naming the file, the line and what is wrong.
LitmusCase load_litmus_case(const std::string& path);

/// Whether `condition` holds for one run: `regs[t][r]` is thread t's register %r<r>, `memory[l]`
/// location l's final value.
bool condition_holds(const LitmusCondition& condition, const std::vector<std::vector<std::uint32_t>>& regs,
                     const std::vector<std::uint32_t>& memory);

std::string race_name(LitmusRace race);

}  // namespace pkb::ptx_test
