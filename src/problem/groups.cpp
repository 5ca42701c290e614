// group_instance and its helpers (see groups.h).
#include "src/problem/groups.h"

#include "src/common/error.h"

namespace pkb::problem {

GroupInstance group_instance(int world, int rank, int size, GroupLayout layout) {
  if (size <= 0 || world % size != 0)
    throw Error("group size " + std::to_string(size) + " does not divide world size " +
                std::to_string(world));
  GroupInstance instance;
  const int stride = world / size;
  if (layout == GroupLayout::strided) {
    instance.index = rank % stride;
    instance.rank = rank / stride;
    for (int at = 0; at < size; ++at) instance.members.push_back(instance.index + at * stride);
  } else {
    instance.index = rank / size;
    instance.rank = rank % size;
    for (int at = 0; at < size; ++at) instance.members.push_back(instance.index * size + at);
  }
  return instance;
}

int group_size(const GroupSpec& group, int world, const std::map<std::string, std::int64_t>& dims) {
  return static_cast<int>(group.size.eval(make_env(dims, world, 0)));
}

std::vector<std::vector<int>> group_instances(const GroupSpec& group, int world,
                                              const std::map<std::string, std::int64_t>& dims) {
  const int size = group_size(group, world, dims);
  std::vector<std::vector<int>> instances(size > 0 ? static_cast<std::size_t>(world / size) : 0);
  for (int rank = 0; rank < world; ++rank) {
    GroupInstance instance = group_instance(world, rank, size, group.layout);
    if (instance.rank == 0) instances.at(instance.index) = std::move(instance.members);
  }
  return instances;
}

std::string group_rank_name(const std::string& group) { return "group_rank(" + group + ")"; }
std::string group_size_name(const std::string& group) { return "group_size(" + group + ")"; }

}  // namespace pkb::problem
