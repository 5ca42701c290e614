// measure_copy_bandwidth and measure_peer_bandwidth (see bandwidth_probe.h). Never throws: every
// CUDA failure becomes the sample's error text.
#include "harness/cuda/bandwidth_probe.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <functional>

namespace pkb::harness {
namespace {

constexpr int kWarmups = 2;
constexpr int kRepeats = 10;

/// Records a failure's text in `error`; true when `status` is success.
bool ok(cudaError_t status, std::string& error) {
  if (status != cudaSuccess && error.empty()) error = cudaGetErrorString(status);
  return status == cudaSuccess;
}

/// Runs `copy` kWarmups + kRepeats times on a new stream of `device` and converts the fastest
/// repetition to bytes per second.
BandwidthSample time_copies(int device, double bytes_per_copy,
                            const std::function<cudaError_t(cudaStream_t)>& copy) {
  BandwidthSample sample;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  std::string& error = sample.error;
  if (ok(cudaSetDevice(device), error) && ok(cudaStreamCreate(&stream), error) &&
      ok(cudaEventCreate(&start), error) && ok(cudaEventCreate(&stop), error)) {
    float best_ms = 0;
    for (int repeat = 0; repeat < kWarmups + kRepeats; ++repeat) {
      float ms = 0;
      if (!ok(cudaEventRecord(start, stream), error) || !ok(copy(stream), error) ||
          !ok(cudaEventRecord(stop, stream), error) || !ok(cudaEventSynchronize(stop), error) ||
          !ok(cudaEventElapsedTime(&ms, start, stop), error))
        break;
      if (repeat >= kWarmups && ms > 0) best_ms = best_ms == 0 ? ms : std::min(best_ms, ms);
    }
    if (error.empty() && best_ms > 0) sample.bytes_per_s = bytes_per_copy / (best_ms * 1e-3);
  }
  if (start) cudaEventDestroy(start);
  if (stop) cudaEventDestroy(stop);
  if (stream) cudaStreamDestroy(stream);
  return sample;
}

}  // namespace

BandwidthSample measure_copy_bandwidth(int device, std::size_t bytes) {
  void* a = nullptr;
  void* b = nullptr;
  BandwidthSample sample;
  if (cudaSetDevice(device) != cudaSuccess || cudaMalloc(&a, bytes) != cudaSuccess ||
      cudaMalloc(&b, bytes) != cudaSuccess) {
    sample.error = cudaGetErrorString(cudaGetLastError());
  } else {
    sample = time_copies(device, 2.0 * static_cast<double>(bytes), [&](cudaStream_t stream) {
      return cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream);
    });
  }
  if (a) cudaFree(a);
  if (b) cudaFree(b);
  return sample;
}

BandwidthSample measure_peer_bandwidth(int src, int dst, std::size_t bytes) {
  void* from = nullptr;
  void* to = nullptr;
  BandwidthSample sample;
  const bool ok = cudaSetDevice(dst) == cudaSuccess && cudaMalloc(&to, bytes) == cudaSuccess &&
                  cudaSetDevice(src) == cudaSuccess && cudaMalloc(&from, bytes) == cudaSuccess;
  if (!ok) {
    sample.error = cudaGetErrorString(cudaGetLastError());
  } else {
    const cudaError_t enabled = cudaDeviceEnablePeerAccess(dst, 0);
    if (enabled != cudaSuccess && enabled != cudaErrorPeerAccessAlreadyEnabled) {
      sample.error = cudaGetErrorString(enabled);
    } else {
      cudaGetLastError();  // clear an "already enabled" status
      sample = time_copies(src, static_cast<double>(bytes), [&](cudaStream_t stream) {
        return cudaMemcpyPeerAsync(to, dst, from, src, bytes, stream);
      });
    }
  }
  if (from) {
    cudaSetDevice(src);
    cudaFree(from);
  }
  if (to) {
    cudaSetDevice(dst);
    cudaFree(to);
  }
  return sample;
}

}  // namespace pkb::harness
