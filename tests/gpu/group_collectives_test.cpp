// Collectives over a problem's groups (docs/ABI.md, "group") against torch.distributed's
// semantics as the references' simulated world implements them: a plan's all_reduce, all_gather
// and reduce_scatter over a block and a strided group, resolved by the real plan code and issued
// by PlanRunner, give every rank what SimWorld's sub-communicator gives it on the same data, on
// the emulated-rank path (HostDevice: the collective moves on the host) and on the simulated node
// (SimDevice).
#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <ostream>
#include <thread>

#include "harness/device/plan_runner.h"
#include "harness/plan/plan_resolve.h"
#include "harness/sim/sim_device.h"
#include "reference/comm/sim_world.h"
#include "src/problem/groups.h"
#include "src/problem/spec_loader.h"
#include "tests/gpu/host_device.h"

namespace pkb::gpu_test {
namespace {

constexpr std::int64_t kCount = 4;       // elements per group rank
constexpr std::int64_t kSpan = 8 * kCount;  // src and dst hold the largest group's data

struct Case {
  std::string kind;   // all_reduce, all_gather, reduce_scatter
  std::string group;  // tp (block, 2 ranks) or fsdp (strided, W / 2 ranks)
  int world;
  bool simulated;  // SimDevice, else HostDevice
};

std::string case_text(const Case& c) {
  return c.kind + "_" + c.group + "_W" + std::to_string(c.world) + (c.simulated ? "_sim" : "_host");
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) { return case_text(info.param); }

void PrintTo(const Case& c, std::ostream* out) { *out << case_text(c); }

// Rank r's send data: 100 * r + i, so every element names its source and position.
std::vector<float> rank_data(int rank) {
  std::vector<float> data(kSpan);
  for (std::int64_t i = 0; i < kSpan; ++i) data[i] = static_cast<float>(100 * rank + i);
  return data;
}

problem::ProblemSpec grouped_spec() {
  problem::ProblemSpec spec = problem::load_problem(std::string(PKB_SOURCE_DIR) + "/problems/001_allreduce");
  spec.groups = {{"tp", problem::ShapeExpr::parse("2"), problem::GroupLayout::block},
                 {"fsdp", problem::ShapeExpr::parse("W / 2"), problem::GroupLayout::strided}};
  return spec;
}

std::string plan_json(const Case& c) {
  return R"J({"buffers": [{"name": "src", "kind": "symmetric", "dtype": "P", "shape": [)J" +
         std::to_string(kSpan) + R"J(]},
                          {"name": "dst", "kind": "symmetric", "dtype": "P", "shape": [)J" +
         std::to_string(kSpan) + R"J(]}],
             "steps": [{"op": "memset", "buffer": "y"},
                       {"op": "collective", "kind": ")J" + c.kind + R"J(", "group": ")J" + c.group +
         R"J(", "send": "src", "recv": "dst", "count": )J" + std::to_string(kCount) + "}]}";
}

// What torch.distributed's call on the rank's group gives each rank: SimWorld, one thread per
// rank, each on the sub-communicator of its instance; dst beyond the result stays 0.
std::vector<std::vector<float>> expected_by_sim_world(const Case& c, const problem::ProblemSpec& spec) {
  ref::SimWorld world(c.world, ref::SimMode::rank_order);
  std::vector<std::vector<float>> out(c.world, std::vector<float>(kSpan, 0.0f));
  std::mutex mutex;
  std::vector<std::thread> threads;
  for (int rank = 0; rank < c.world; ++rank)
    threads.emplace_back([&, rank] {
      auto comm = world.comm(rank);
      const auto& group = spec.groups[c.group == "tp" ? 0 : 1];
      const int size = problem::group_size(group, c.world, spec.test_dims);
      auto sub = comm->split(problem::group_instance(c.world, rank, size, group.layout).members);
      const std::vector<float> data = rank_data(rank);
      const at::Tensor src = at::tensor(data, at::kFloat);
      at::Tensor result;
      if (c.kind == "all_reduce") {
        result = src.slice(0, 0, kCount).clone();
        sub->all_reduce(result, ref::ReduceOp::sum);
      } else if (c.kind == "all_gather") {
        result = at::empty({size * kCount}, at::kFloat);
        sub->all_gather(result, src.slice(0, 0, kCount).contiguous());
      } else {
        result = at::empty({kCount}, at::kFloat);
        sub->reduce_scatter(result, src.slice(0, 0, size * kCount).contiguous(), ref::ReduceOp::sum);
      }
      std::lock_guard<std::mutex> lock(mutex);
      for (std::int64_t i = 0; i < result.numel(); ++i) out[rank][i] = result[i].item<float>();
      world.rank_finished(rank);
    });
  for (auto& thread : threads) thread.join();
  return out;
}

class GroupCollectives : public ::testing::TestWithParam<Case> {};

TEST_P(GroupCollectives, GiveWhatTheSimulatedWorldsSubCommunicatorGives) {
  const Case& c = GetParam();
  const problem::ProblemSpec spec = grouped_spec();
  std::unique_ptr<harness::ExecDevice> device;
  if (c.simulated) device = std::make_unique<harness::SimDevice>(harness::SimOptions{c.world});
  else device = std::make_unique<HostDevice>(c.world);
  plan::PlanTarget target;
  target.spec = &spec;
  target.world = c.world;
  target.dtype = DType::fp32;
  target.dims = spec.test_dims;
  target.limits = device->limits();
  harness::PlanRunner runner(plan::resolve_all_ranks(*plan::parse_plan(plan_json(c)), target), *device);
  const std::vector<float> zeros(kSpan, 0.0f);
  for (int rank = 0; rank < c.world; ++rank) {
    device->write(rank, runner.address(rank, "src"), rank_data(rank).data(), kSpan * sizeof(float));
    device->write(rank, runner.address(rank, "dst"), zeros.data(), kSpan * sizeof(float));
  }
  runner.issue();
  const harness::SyncResult sync = device->synchronize(10);
  ASSERT_TRUE(sync.ok) << sync.error;
  const auto expected = expected_by_sim_world(c, spec);
  for (int rank = 0; rank < c.world; ++rank) {
    std::vector<float> got(kSpan);
    device->read(rank, runner.address(rank, "dst"), got.data(), kSpan * sizeof(float));
    EXPECT_EQ(got, expected[rank]) << "rank " << rank;
  }
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const char* kind : {"all_reduce", "all_gather", "reduce_scatter"})
    for (const char* group : {"tp", "fsdp"})
      for (int world : {4, 8})
        for (bool simulated : {false, true}) cases.push_back({kind, group, world, simulated});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Kinds, GroupCollectives, ::testing::ValuesIn(all_cases()), case_name);

// The expected values are not a copy of the moves' rule: a world all_reduce gives another answer
// than a grouped one on the same data, and the check above would see it.
TEST(GroupCollectivesSanity, AGroupedAllReduceDiffersFromTheWorlds) {
  const problem::ProblemSpec spec = grouped_spec();
  const auto grouped = expected_by_sim_world({"all_reduce", "tp", 4, false}, spec);
  EXPECT_EQ(grouped[0][0], 0.0f + 100.0f);  // ranks 0 and 1
  EXPECT_EQ(grouped[2][0], 200.0f + 300.0f);  // ranks 2 and 3
}

}  // namespace
}  // namespace pkb::gpu_test
