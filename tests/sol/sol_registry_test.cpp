// Every problem in the registry has a complete sol entry whose expressions evaluate, without
// dividing by zero or going negative, at every allowed W and dtype for both test and bench dims;
// and the collectives' link bounds equal the nccl-tests bus-bandwidth factors.
#include <gtest/gtest.h>

#include "src/problem/problem_index.h"
#include "src/sol/floor.h"

namespace pkb::sol {
namespace {

std::vector<problem::ProblemSpec> registry() {
  return problem::ProblemIndex(std::string(PKB_SOURCE_DIR) + "/problems").load_all();
}

TEST(SolRegistry, EveryProblemHasACompleteEntryThatEvaluatesEverywhere) {
  const auto specs = registry();
  ASSERT_GE(specs.size(), 87u);
  const auto profiles = load_profiles(std::string(PKB_SOURCE_DIR) + "/prompts/hardware.json");
  std::vector<std::string> missing;
  for (const auto& spec : specs) {
    if (!spec.sol) {
      missing.push_back(spec.key);
      continue;
    }
    EXPECT_FALSE(spec.sol->link_bytes.why.empty()) << spec.key;
    EXPECT_FALSE(spec.sol->hbm_bytes.why.empty()) << spec.key;
    EXPECT_FALSE(spec.sol->flops.why.empty()) << spec.key;
    for (const auto* dims : {&spec.test_dims, &spec.dims})
      for (int world : spec.world_sizes)
        for (DType dtype : spec.dtypes) {
          Work work;
          ASSERT_NO_THROW(work = evaluate_work(spec, *dims, world, dtype))
              << spec.key << " W=" << world << " " << dtype_name(dtype);
          EXPECT_GT(work.hbm_bytes, 0) << spec.key << ": every call reads or writes something";
          for (const auto& profile : profiles) {
            Setting setting{world, dtype, false, true};
            EXPECT_GT(floor_time(work, profile, setting).seconds, 0)
                << spec.key << " on " << profile.key;
          }
        }
  }
  std::string list;
  for (const auto& key : missing) list += " " + key;
  EXPECT_TRUE(missing.empty()) << missing.size() << " problems have no \"sol\" entry:" << list;
}

double tensor_bytes(const problem::ProblemSpec& spec, const problem::TensorSpec& tensor,
                    const std::map<std::string, std::int64_t>& dims, int world, DType dtype) {
  double count = 1;
  for (auto size : problem::eval_shape(tensor, problem::make_env(dims, world, 0)))
    count *= static_cast<double>(size);
  (void)spec;
  return count * static_cast<double>(dtype_size(tensor.dtype.resolve(dtype)));
}

// link_bytes * W == factor_numerator * (W - 1) * bytes, where bytes is the tensor whose size the
// nccl-tests factor multiplies: all-reduce 2(W-1)/W of the data, all-gather (W-1)/W of the gathered
// output, reduce-scatter (W-1)/W of the full input, all-to-all (W-1)/W of the data.
struct Collective {
  const char* key;
  int numerator;  // 2 for all-reduce, else 1
  bool output;    // the factor applies to the output's size (all-gather)
};

TEST(SolRegistry, CollectiveBoundsAreTheNcclTestsBusBandwidthFactors) {
  const Collective collectives[] = {{"001_allreduce", 2, false},
                                    {"002_allgather", 1, true},
                                    {"007_reducescatter", 1, false},
                                    {"008_alltoall", 1, false},
                                    {"030_moe_epgroupgemm_lora_backward", 2, false},
                                    {"033_ulysses_all_to_all_tensor_primitive", 1, false},
                                    {"034_ulysses_all_gather_into_tensor_primitive", 1, true},
                                    {"035_ulysses_all_gather_variable_primitive", 1, true}};
  const auto specs = registry();
  int checked = 0;
  for (const auto& collective : collectives) {
    for (const auto& spec : specs) {
      if (spec.key != collective.key) continue;
      ASSERT_TRUE(spec.sol) << spec.key;
      for (const auto* dims : {&spec.test_dims, &spec.dims})
        for (int world : spec.world_sizes)
          for (DType dtype : spec.dtypes) {
            double bytes = 0;
            for (const auto& tensor : collective.output ? spec.outputs : spec.inputs)
              bytes += tensor_bytes(spec, tensor, *dims, world, dtype);
            const Work work = evaluate_work(spec, *dims, world, dtype);
            EXPECT_DOUBLE_EQ(work.link_bytes * world, collective.numerator * (world - 1) * bytes)
                << spec.key << " W=" << world << " " << dtype_name(dtype);
            ++checked;
          }
    }
  }
  EXPECT_GE(checked, 8 * 2 * 3 * 2);  // every collective found, both dims, three worlds
}

TEST(SolRegistry, BroadcastAndReduceMoveTheDataOnce) {
  for (const auto& spec : registry()) {
    if (spec.key != "003_broadcast" && spec.key != "004_reduce") continue;
    for (int world : spec.world_sizes) {
      const Work work = evaluate_work(spec, spec.dims, world, DType::bf16);
      EXPECT_DOUBLE_EQ(work.link_bytes,
                       tensor_bytes(spec, spec.inputs[0], spec.dims, world, DType::bf16))
          << spec.key;
    }
  }
}

}  // namespace
}  // namespace pkb::sol
