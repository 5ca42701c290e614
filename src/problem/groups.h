// Which ranks form rank r's instance of a problem's group (problem.json "groups"), and r's rank in
// it: the one rule the references' communicators, the plan's grouped collectives, the prompt and
// the devices' NCCL splits share.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/problem/spec.h"

namespace pkb::problem {

/// One instance of a group: the world ranks in it, ascending (a member's group rank is its
/// position, as torch.distributed numbers a new_group's ranks), and which instance it is.
struct GroupInstance {
  std::vector<int> members;
  int index = 0;  // 0 .. world / size - 1: block counts blocks, strided counts offsets
  int rank = 0;   // the asking rank's position in members
};

/// Rank `rank`'s instance of a group of `size` ranks: block takes consecutive ranks ({0,1},{2,3}
/// for size 2 at W = 4), strided every (world / size)-th ({0,2},{1,3}). Throws pkb::Error when
/// `size` does not divide `world`.
GroupInstance group_instance(int world, int rank, int size, GroupLayout layout);

/// The group's size at this world and dims (its expression evaluated with rank 0).
int group_size(const GroupSpec& group, int world, const std::map<std::string, std::int64_t>& dims);

/// Every instance of the group, in index order.
std::vector<std::vector<int>> group_instances(const GroupSpec& group, int world,
                                              const std::map<std::string, std::int64_t>& dims);

/// The names a plan expression gains for a group: "group_rank(NAME)", "group_size(NAME)".
std::string group_rank_name(const std::string& group);
std::string group_size_name(const std::string& group);

}  // namespace pkb::problem
