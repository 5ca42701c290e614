// pkb-sim-worker: judges one sample on the simulated node (the candidate's PTX run by pkb's
// interpreter on the CPU) and exits. The same request and result as pkb-worker
// (harness/executor/worker_protocol.h); it links no CUDA library, so it runs on a machine without
// a GPU or a driver. Nothing is timed: a correct sample is correct, never fast.
//   pkb-sim-worker REQUEST.json
#include "harness/executor/worker_main.h"
#include "harness/sim/sim_device.h"

namespace {

// The seed of every schedule: the request's, else one derived from its secret trial seeds (so a
// run's schedules differ from another run's, and the result records the seed to replay them).
std::uint64_t schedule_seed(const pkb::harness::WorkerRequest& request) {
  if (request.schedule_seed != 0) return request.schedule_seed;
  std::uint64_t seed = 0x51A7EDull;
  for (int trial : request.trial_seeds) seed = seed * 1000003ull + static_cast<std::uint64_t>(trial);
  return seed == 0 ? 1 : seed;
}

std::unique_ptr<pkb::harness::ExecDevice> make_sim_device(const pkb::harness::WorkerRequest& request) {
  pkb::harness::SimOptions options;
  options.world = request.world;
  options.schedule_seed = schedule_seed(request);
  options.call_lane_budget = request.call_lane_budget;
  options.memory_model = request.memory_model == "sc" ? pkb::ptx::MemoryModel::sc : pkb::ptx::MemoryModel::ptx;
  options.sms = request.num_sms;
  return std::make_unique<pkb::harness::SimDevice>(options);
}

}  // namespace

int main(int argc, char** argv) {
  pkb::harness::worker_main(argc, argv, "pkb-sim-worker", {make_sim_device, nullptr});
}
