// The parts of Comm shared by every implementation: names, named sub-groups, group layouts.
#include "reference/comm/comm.h"

#include "src/common/error.h"
#include "src/problem/groups.h"

namespace pkb::ref {

const char* reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::max: return "max";
    case ReduceOp::min: return "min";
    case ReduceOp::avg: return "avg";
  }
  return "?";
}

Comm& Comm::group(const std::string& name) const {
  auto found = groups_.find(name);
  if (found == groups_.end())
    throw Error("comm: no sub-group named '" + name + "' (declare it in problem.json \"groups\")");
  return *found->second;
}

void Comm::add_group(const std::string& name, std::unique_ptr<Comm> group) {
  groups_[name] = std::move(group);
}

std::vector<int> group_members(int world, int rank, int size, bool strided) {
  if (size <= 0 || world % size != 0)
    throw Error("comm: group size " + std::to_string(size) + " does not divide world size " +
                std::to_string(world));
  return problem::group_instance(
             world, rank, size,
             strided ? problem::GroupLayout::strided : problem::GroupLayout::block)
      .members;
}

}  // namespace pkb::ref
