// BaselineTimer (see baseline.h). Unverified on a GPU: that ATen's default stream is the legacy
// stream the events are recorded on (true for libtorch builds without per-thread default streams).
#include "harness/cuda/cuda_baseline.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <thread>

#include "reference/comm/cuda_check.h"
#include "reference/runner.h"

#ifdef PKB_HAVE_NCCL
#include "reference/comm/nccl_comm.h"
#endif

namespace pkb::harness {
namespace {

constexpr int kMaxWarmupIterations = 1000;

// W threads meet here before every iteration.
class HostBarrier {
 public:
  explicit HostBarrier(int count) : count_(count) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const long generation = generation_;
    if (++arrived_ == count_) {
      arrived_ = 0;
      ++generation_;
      changed_.notify_all();
      return;
    }
    changed_.wait(lock, [&] { return generation_ != generation; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int count_;
  int arrived_ = 0;
  long generation_ = 0;
};

ref::Tensors copy_to(const ref::Tensors& tensors, at::Device device) {
  ref::Tensors out;
  for (const auto& [name, tensor] : tensors)
    out.set(name,
            tensor.to(at::TensorOptions().device(device), /*non_blocking=*/false, /*copy=*/true));
  return out;
}

}  // namespace

struct BaselineTimer::Impl {
  const Sample& sample;
  const ref::Reference& reference;
  const ref::Scalars scalars;
  std::vector<std::vector<ref::Tensors>> sets;  // [set][rank], on the rank's device
  int next_set = 0;
  bool nccl = false;
#ifdef PKB_HAVE_NCCL
  std::vector<std::unique_ptr<ref::NcclComm>> comms;
#endif

  Impl(const Sample& s)
      : sample(s), reference(ref::reference_for(s.spec)), scalars(ref::scalars_of(s.spec)) {}

  ref::RunConfig config() const {
    ref::RunConfig c;
    c.world = sample.request.world;
    c.dtype = sample.request.dtype;
    c.dims = sample.request.dims;
    c.device = sample.reference_device;
    return c;
  }

  std::vector<double> iterations(int count);
  std::vector<double> simulated_iterations(int count);
  std::vector<double> nccl_iterations(int count);
  void make_groups();
};

std::vector<double> BaselineTimer::Impl::simulated_iterations(int count) {
  std::vector<double> times;
  for (int i = 0; i < count; ++i) {
    const auto& inputs = sets[next_set];
    next_set = (next_set + 1) % static_cast<int>(sets.size());
    if (sample.reference_device.is_cuda()) PKB_CUDA_CHECK(cudaDeviceSynchronize());
    const auto start = std::chrono::steady_clock::now();
    ref::solve_simulated(sample.spec, config(), inputs, {});
    if (sample.reference_device.is_cuda()) PKB_CUDA_CHECK(cudaDeviceSynchronize());
    times.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
  }
  return times;
}

#ifdef PKB_HAVE_NCCL
void BaselineTimer::Impl::make_groups() {
  // Sub-groups are split collectively, so on every rank's thread at once (as solve_ranks does).
  std::vector<std::thread> threads;
  for (int rank = 0; rank < sample.request.world; ++rank)
    threads.emplace_back([this, rank] {
      const auto env = problem::make_env(sample.request.dims, sample.request.world, rank);
      for (const auto& group : sample.spec.groups) {
        const int size = static_cast<int>(group.size.eval(env));
        const auto members = ref::group_members(sample.request.world, rank, size,
                                                group.layout == problem::GroupLayout::strided);
        comms[rank]->add_group(group.name, comms[rank]->split(members));
      }
    });
  for (auto& thread : threads) thread.join();
}

std::vector<double> BaselineTimer::Impl::nccl_iterations(int count) {
  const int world = sample.request.world;
  std::vector<std::vector<double>> per_rank(world, std::vector<double>(count));
  std::vector<std::string> errors(world);
  HostBarrier barrier(world);
  const int first_set = next_set;
  auto run_rank = [&](int rank) {
    try {
      PKB_CUDA_CHECK(cudaSetDevice(comms[rank]->device()));
      cudaEvent_t start = nullptr, end = nullptr;
      PKB_CUDA_CHECK(cudaEventCreate(&start));
      PKB_CUDA_CHECK(cudaEventCreate(&end));
      for (int i = 0; i < count; ++i) {
        const auto& inputs = sets[(first_set + i) % sets.size()][rank];
        PKB_CUDA_CHECK(cudaDeviceSynchronize());
        barrier.arrive_and_wait();
        PKB_CUDA_CHECK(cudaEventRecord(start, nullptr));
        reference.solve(*comms[rank], inputs, scalars);
        PKB_CUDA_CHECK(cudaEventRecord(end, nullptr));
        PKB_CUDA_CHECK(cudaEventSynchronize(end));
        float ms = 0;
        PKB_CUDA_CHECK(cudaEventElapsedTime(&ms, start, end));
        per_rank[rank][i] = ms * 1000.0;
      }
      cudaEventDestroy(start);
      cudaEventDestroy(end);
    } catch (const std::exception& error) {
      // A failing reference is a pkb bug; the other ranks may now wait in NCCL forever, and the
      // worker's deadline ends the process.
      errors[rank] = error.what();
    }
  };
  std::vector<std::thread> threads;
  for (int rank = 0; rank < world; ++rank) threads.emplace_back(run_rank, rank);
  for (auto& thread : threads) thread.join();
  for (int rank = 0; rank < world; ++rank)
    if (!errors[rank].empty())
      throw Error("baseline: rank " + std::to_string(rank) + ": " + errors[rank]);
  next_set = (first_set + count) % static_cast<int>(sets.size());
  std::vector<double> times(count, 0);
  for (int i = 0; i < count; ++i)
    for (int rank = 0; rank < world; ++rank) times[i] = std::max(times[i], per_rank[rank][i]);
  return times;
}
#else
void BaselineTimer::Impl::make_groups() {}
std::vector<double> BaselineTimer::Impl::nccl_iterations(int) {
  throw Error("baseline: this pkb-worker was built without NCCL");
}
#endif

std::vector<double> BaselineTimer::Impl::iterations(int count) {
  return nccl ? nccl_iterations(count) : simulated_iterations(count);
}

BaselineTimer::BaselineTimer(const Sample& sample,
                             const std::vector<std::vector<ref::Tensors>>& distinct, int sets)
    : impl_(std::make_unique<Impl>(sample)) {
  ref::use_full_fp32();
#ifdef PKB_HAVE_NCCL
  impl_->nccl = !sample.device->emulated() && at::hasCUDA();
#endif
  std::vector<int> devices = sample.request.devices;
  if (devices.empty())
    for (int rank = 0; rank < sample.request.world; ++rank) devices.push_back(rank);
  for (int set = 0; set < sets; ++set) {
    std::vector<ref::Tensors> ranks;
    for (int rank = 0; rank < sample.request.world; ++rank) {
      const at::Device device =
          impl_->nccl ? at::Device(at::kCUDA, devices[rank]) : sample.reference_device;
      ranks.push_back(copy_to(distinct[set % distinct.size()][rank], device));
    }
    impl_->sets.push_back(std::move(ranks));
  }
#ifdef PKB_HAVE_NCCL
  if (impl_->nccl) {
    impl_->comms = ref::NcclComm::init_all(devices);
    impl_->make_groups();
  }
#endif
}

BaselineTimer::~BaselineTimer() = default;

std::string BaselineTimer::kind() const { return impl_->nccl ? "nccl" : "simulated"; }

std::vector<double> BaselineTimer::run(const IterationPolicy& policy) {
  std::vector<double> warmup;
  while (!warmup_done(static_cast<int>(warmup.size()),
                      std::accumulate(warmup.begin(), warmup.end(), 0.0) / 1000, policy) &&
         static_cast<int>(warmup.size()) < kMaxWarmupIterations) {
    const auto batch = impl_->iterations(policy.warmup_min_iterations);
    warmup.insert(warmup.end(), batch.begin(), batch.end());
  }
  const std::vector<double> recent(warmup.end() - std::min<std::size_t>(warmup.size(), 10),
                                   warmup.end());
  return impl_->iterations(measure_iterations(median_of(recent) / 1000, policy));
}

std::unique_ptr<Baseline> make_cuda_baseline(const Sample& sample,
                                             const std::vector<std::vector<ref::Tensors>>& distinct,
                                             int sets) {
  return std::make_unique<BaselineTimer>(sample, distinct, sets);
}

}  // namespace pkb::harness
