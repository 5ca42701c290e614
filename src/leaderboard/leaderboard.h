// The leaderboard model: every results directory under a root, merged per (model, settings,
// hardware), grouped by (hardware, W) so that different machines are never ranked together.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "src/score/coverage.h"
#include "src/score/score.h"

namespace pkb::leaderboard {

struct Entry {
  std::string model;     // fingerprint.model
  std::string dtype;     // fingerprint.dtype
  std::string run;       // what tells it apart from another row of its model: "bf16, dims test, 1 turn, 2026-11-30"
  std::string distinct;  // of those, the ones another row of its model differs in ("dims large, 2026-11-24")
  std::vector<std::string> dirs;  // relative to the root
  score::Score score;
  score::Coverage coverage;  // of the group's problems (score/coverage.h)
  bool ranked = false;       // judged every problem of the group
  std::string anchor;    // "g0-r1"
};

struct Group {
  std::string hardware;  // run.json hardware_key ("unknown hardware" when absent)
  std::string world;     // fingerprint.world as text
  int k = 1;             // the k of this group's pass@k: the fewest samples of any problem, max 10
  std::vector<std::string> problems;  // what it ranks on: every problem some row judged
  // Ranked rows first (fast_1@k, then pass@k, then pass@1), then the unranked ones, which lack
  // some of `problems`, by how many they judged and the same keys.
  std::vector<Entry> entries;
  std::vector<std::string> categories;
};

/// The rows of `group` that are ranked (a prefix of entries).
std::size_t ranked_count(const Group& group);

/// How charts and secondary tables name a row: its model, plus what tells it apart where another
/// row of the group has the same model ("m (dims large, 2026-11-24)").
std::string row_name(const Group& group, const Entry& entry);

/// Whether some row of `group` has a timed sample: its speed columns and map shading mean something.
bool group_timed(const Group& group);

/// For a group judged on the simulated node, one sentence saying what its numbers mean; "" for
/// GPU groups.
std::string simulated_note(const Group& group);

struct Leaderboard {
  std::string root;
  std::vector<Group> groups;
  std::vector<double> chart_ps;  // the p axis of the fast_p chart
  std::shared_ptr<const void> records;  // the loaded directories the scores' pools point into
};

/// The ps every entry is scored at: the chart's axis, which includes 1 and 1.5 for the table.
std::vector<double> chart_ps();

/// Reads and scores every results dir under `root`. Throws InputError naming the directory (and
/// file and line) for one that is invalid; an empty root is an error too.
Leaderboard build_leaderboard(const std::filesystem::path& root, std::uint64_t seed, int bootstrap);

/// Names of the table's metrics for a group, each once: pass@1, pass@k (k > 1 only), then where
/// the group was timed fast_1@k, fast_1.5@k, geomean_speedup, and median_sol_fraction where some
/// row has one.
std::vector<std::string> table_metrics(const Group& group);

/// The most refinement turns of any entry in `group`: 1 when none has more than one.
int group_turns(const Group& group);

/// Writes leaderboard.md and index.html into `out` (created if needed).
void write_leaderboard(const Leaderboard& board, const std::filesystem::path& out);

std::string render_markdown(const Leaderboard& board);
std::string render_html(const Leaderboard& board);

}  // namespace pkb::leaderboard
