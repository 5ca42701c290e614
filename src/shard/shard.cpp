// The shard rule of shard.h, and the parsing of --shard.
#include "src/shard/shard.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "src/common/error.h"

namespace pkb::shard {
namespace {

// A whole decimal number without sign or spaces; std::stoi would take " 1", "+1" and "1x".
bool parse_count(const std::string& text, int& value) {
  if (text.empty() || text.size() > 6) return false;
  if (!std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  value = std::stoi(text);
  return true;
}

// Positions of `work` in sorted (problem, sample) order.
std::vector<std::size_t> sorted_positions(const std::vector<WorkItem>& work) {
  std::vector<std::size_t> order(work.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&work](std::size_t a, std::size_t b) {
    return std::tie(work[a].problem, work[a].sample) < std::tie(work[b].problem, work[b].sample);
  });
  return order;
}

}  // namespace

const char* const kShardHelp =
    "Do part I of N of the (problem, sample) list: I/N with 0 <= I < N (default: all; "
    "docs/SCALE.md)";

Shard parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  Shard shard;
  const bool parsed = slash != std::string::npos && parse_count(text.substr(0, slash), shard.index) &&
                      parse_count(text.substr(slash + 1), shard.count);
  if (!parsed || shard.count < 1 || shard.index >= shard.count)
  {
    const std::string n = std::to_string(parsed && shard.count > 0 ? shard.count : 4);
    throw UsageError("--shard " + text + ": expected I/N with 0 <= I < N, e.g. 0/" + n +
                     " for the first of " + n + " shards");
  }
  return shard;
}

std::string shard_text(Shard shard) {
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

std::vector<WorkItem> work_list(const std::vector<std::string>& problems, int samples) {
  std::vector<WorkItem> work;
  for (const auto& problem : problems)
    for (int sample = 0; sample < samples; ++sample) work.push_back({problem, sample});
  return work;
}

std::vector<int> owners(const std::vector<WorkItem>& work, int count) {
  PKB_ASSERT(count >= 1, "owners: count < 1");
  const auto order = sorted_positions(work);
  std::vector<int> owner(work.size(), 0);
  for (std::size_t rank = 0; rank < order.size(); ++rank)
    owner[order[rank]] = static_cast<int>(rank % static_cast<std::size_t>(count));
  return owner;
}

std::vector<WorkItem> select_shard(const std::vector<WorkItem>& work, Shard shard) {
  PKB_ASSERT(shard.index >= 0 && shard.index < shard.count, "select_shard: bad shard");
  const auto owner = owners(work, shard.count);
  std::vector<WorkItem> selected;
  for (std::size_t position = 0; position < work.size(); ++position)
    if (owner[position] == shard.index) selected.push_back(work[position]);
  return selected;
}

ShardFilter::ShardFilter(const std::vector<std::string>& problems, int samples, Shard shard)
    : whole_(shard.whole()) {
  if (whole_) return;
  for (const auto& item : select_shard(work_list(problems, samples), shard)) owned_.insert({item.problem, item.sample});
}

bool ShardFilter::owns(const std::string& problem, int sample) const {
  return whole_ || owned_.count({problem, sample}) > 0;
}

nlohmann::json shard_json(Shard shard) {
  if (shard.whole()) return nullptr;
  return {{"index", shard.index}, {"count", shard.count}};
}

}  // namespace pkb::shard
