// solve_nccl: NcclComm::init_all over cuda:0..W-1, then solve_ranks. NCCL cannot wake a rank that
// waits on a failed peer (NcclComm has no abort yet), so a rank error can leave the others waiting;
// that is why this path is a user's explicit choice and tests use the simulated world.
#include "reference/solve_nccl.h"

#include <ATen/Context.h>

#include "src/common/error.h"

#ifdef PKB_HAVE_NCCL
#include "reference/comm/nccl_comm.h"
#endif

namespace pkb::ref {

std::vector<Tensors> solve_nccl(const problem::ProblemSpec& spec, const RunConfig& config,
                                const std::vector<Tensors>& inputs) {
#ifndef PKB_HAVE_NCCL
  throw UsageError("--backend nccl: this pkb was built without NCCL (install libnccl-dev and rebuild)");
#else
  if (!at::hasCUDA()) throw UsageError("--backend nccl: this libtorch has no CUDA, or no GPU is visible");
  const int gpus = static_cast<int>(at::getNumGPUs());
  if (gpus < config.world)
    throw UsageError("--backend nccl: --world " + std::to_string(config.world) + " needs " +
                     std::to_string(config.world) + " GPUs, this machine has " + std::to_string(gpus) +
                     " (use the simulated world: --device cuda)");
  std::vector<int> devices(config.world);
  for (int rank = 0; rank < config.world; ++rank) devices[rank] = rank;

  class NcclComms final : public RankComms {
   public:
    explicit NcclComms(const std::vector<int>& devices) : comms_(NcclComm::init_all(devices)) {}
    Comm& comm(int rank) const override { return *comms_[rank]; }
    Tensors place(int rank, const Tensors& inputs) const override {
      Tensors placed;
      for (const auto& [name, tensor] : inputs) placed.set(name, tensor.to(at::Device(at::kCUDA, rank)));
      return placed;
    }
    void abort(const std::string&) const override {}
    void finished(int) const override {}

   private:
    std::vector<std::unique_ptr<NcclComm>> comms_;
  };
  return solve_ranks(spec, config, inputs, false, NcclComms(devices));
#endif
}

}  // namespace pkb::ref
