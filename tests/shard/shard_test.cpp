// The --shard rule: N shards cover the work list exactly once, each shard's part does not depend on
// the order of the list, and bad values are refused naming the flag.
#include "src/shard/shard.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "src/common/error.h"

namespace pkb::shard {
namespace {

std::vector<WorkItem> sample_work() {
  return work_list({"001_allreduce", "002_allgather", "003_broadcast", "016_gemm_reducescatter_overlap",
                    "007_reducescatter"},
                   4);
}

TEST(Shard, CoversTheWorkListExactlyOnceForOneToSevenShards) {
  const auto work = sample_work();
  for (int count = 1; count <= 7; ++count) {
    std::map<std::pair<std::string, int>, int> taken;
    std::size_t largest = 0, smallest = work.size();
    for (int index = 0; index < count; ++index) {
      const auto part = select_shard(work, {index, count});
      largest = std::max(largest, part.size());
      smallest = std::min(smallest, part.size());
      for (const auto& item : part) ++taken[{item.problem, item.sample}];
    }
    ASSERT_EQ(taken.size(), work.size()) << "N = " << count;
    for (const auto& [item, times] : taken) EXPECT_EQ(times, 1) << item.first << " " << item.second << ", N = " << count;
    EXPECT_LE(largest - smallest, 1u) << "shards differ by more than one item, N = " << count;
  }
}

TEST(Shard, DoesNotDependOnTheOrderOfTheList) {
  const auto work = sample_work();
  auto reversed = work;
  std::reverse(reversed.begin(), reversed.end());
  for (int index = 0; index < 3; ++index) {
    auto a = select_shard(work, {index, 3}), b = select_shard(reversed, {index, 3});
    std::reverse(b.begin(), b.end());
    EXPECT_EQ(a, b) << "shard " << index << "/3";
  }
}

TEST(Shard, DealsSortedPositionsRoundRobin) {
  // Sorted: 001 s0, 001 s1, 002 s0, 002 s1 -> shard 0 of 2 takes positions 0 and 2.
  const auto part = select_shard(work_list({"002_allgather", "001_allreduce"}, 2), {0, 2});
  const std::vector<WorkItem> expected = {{"002_allgather", 0}, {"001_allreduce", 0}};
  EXPECT_EQ(part, expected);
  EXPECT_EQ(owners(work_list({"002_allgather", "001_allreduce"}, 2), 2), (std::vector<int>{0, 1, 0, 1}));
}

TEST(Shard, OneShardIsTheWholeRun) {
  const auto work = sample_work();
  EXPECT_EQ(select_shard(work, parse_shard("0/1")), work);
  EXPECT_TRUE(parse_shard("0/1").whole());
}

TEST(Shard, ParsesIndexAndCount) {
  const Shard shard = parse_shard("2/7");
  EXPECT_EQ(shard.index, 2);
  EXPECT_EQ(shard.count, 7);
  EXPECT_EQ(shard_text(shard), "2/7");
}

TEST(Shard, RefusesBadValuesNamingTheFlag) {
  const std::pair<const char*, const char*> cases[] = {
      {"0/0", "--shard 0/0: expected I/N with 0 <= I < N, e.g. 0/4 for the first of 4 shards"},
      {"3/3", "--shard 3/3: expected I/N with 0 <= I < N, e.g. 0/3 for the first of 3 shards"},
      {"a/b", "--shard a/b: expected I/N with 0 <= I < N, e.g. 0/4 for the first of 4 shards"},
      {"1/0", "--shard 1/0: expected I/N with 0 <= I < N, e.g. 0/4 for the first of 4 shards"},
  };
  for (const auto& [text, message] : cases) {
    try {
      parse_shard(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const UsageError& error) {
      EXPECT_EQ(std::string(error.what()), message);
    }
  }
  for (const char* text : {"-1/3", "1", "1/2/3", " 1/2", "1/2x", "", "/", "+1/2"})
    EXPECT_THROW(parse_shard(text), UsageError) << "'" << text << "'";
}

TEST(ShardFilter, OwnsWhatSelectShardSelects) {
  const std::vector<std::string> problems = {"003_broadcast", "001_allreduce"};
  const ShardFilter filter(problems, 3, {1, 4});
  const auto part = select_shard(work_list(problems, 3), {1, 4});
  int owned = 0;
  for (const auto& item : work_list(problems, 3)) {
    const bool expected = std::find(part.begin(), part.end(), item) != part.end();
    EXPECT_EQ(filter.owns(item.problem, item.sample), expected) << item.problem << " " << item.sample;
    owned += expected;
  }
  EXPECT_EQ(owned, 2);  // 6 items: positions 1 and 5
  EXPECT_TRUE(ShardFilter(problems, 3, {0, 1}).owns("anything", 99));
  EXPECT_TRUE(shard_json({0, 1}).is_null());
  EXPECT_EQ(shard_json({2, 3}), nlohmann::json({{"index", 2}, {"count", 3}}));
}

}  // namespace
}  // namespace pkb::shard
