// The per-turn fold. A sample's records are filtered, not replayed: "correct at turn t" is "some
// record with turn < t is correct", and a sample that stopped early (fast enough, out of tokens,
// an api_error) simply has no later records, so it keeps its last state at every later turn.
#include "src/score/turn_score.h"

#include <algorithm>

#include "src/common/error.h"

namespace pkb::score {
namespace {

// The same bound the record reader puts on `turn` (src/results/sample_record.cpp).
constexpr long long kMaxTurns = 1000000;

}  // namespace

int turn_count(const Pool& pool) {
  int turns = 1;
  auto declared = pool.fingerprint.find("turns");
  if (declared != pool.fingerprint.end() && !declared->is_null()) {
    if (!declared->is_number_integer() || declared->get<long long>() < 1 ||
        declared->get<long long>() > kMaxTurns)
      throw InputError(
          (pool.inputs.empty() ? std::string("run.json") : pool.inputs.front() + "/run.json"),
          "fingerprint.turns", "an integer >= 1", declared->dump());
    turns = declared->get<int>();
  }
  for (const auto& item : pool.records) turns = std::max(turns, item.record->turn + 1);
  return turns;
}

Pool pool_before_turn(const Pool& pool, int turn) {
  Pool before = pool;
  before.records.clear();
  for (const auto& item : pool.records)
    if (item.record->turn < turn) before.records.push_back(item);
  return before;
}

std::vector<TurnScore> score_turns(const Pool& pool, int turns, const std::vector<int>& ks,
                                   const ScoreSettings& settings) {
  ScoreSettings point = settings;
  point.bootstrap = 0;  // intervals per turn would cost T bootstraps; the overall ones stay
  std::vector<TurnScore> rows;
  for (int turn = 1; turn <= turns; ++turn) {
    const std::vector<ProblemTally> tallies =
        tally_problems(pool_before_turn(pool, turn), settings.ps);
    TurnScore row;
    row.turn = turn;
    row.fast.assign(settings.ps.size(), 0);
    std::vector<const ProblemTally*> all;
    for (const auto& tally : tallies) {
      all.push_back(&tally);
      row.correct += tally.c;
      for (std::size_t p = 0; p < settings.ps.size(); ++p) row.fast[p] += tally.fast[p];
    }
    row.group = score_group("turn " + std::to_string(turn), all, ks, point);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace pkb::score
