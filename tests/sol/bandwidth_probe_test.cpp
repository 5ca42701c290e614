// The doctor's bandwidth probe on a real GPU: the copy (and, with two GPUs, the peer) bandwidth is
// measured, and lands between a third of the matched profile's datasheet number and 10% above it.
// Skipped without a GPU. Never run so far: written and compiled on a machine without one.
#include "harness/cuda/bandwidth_probe.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "src/sol/profile.h"

namespace pkb::harness {
namespace {

int gpu_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

std::optional<sol::Profile> this_gpus_profile() {
  cudaDeviceProp props{};
  if (cudaGetDeviceProperties(&props, 0) != cudaSuccess) return std::nullopt;
  return sol::match_profile(
      sol::load_profiles(std::string(PKB_SOURCE_DIR) + "/prompts/hardware.json"), props.name);
}

TEST(BandwidthProbe, CopyBandwidthIsMeasuredAndPlausible) {
  if (gpu_count() == 0)
    GTEST_SKIP() << "no CUDA GPU visible (cudaGetDeviceCount failed or returned 0)";
  const BandwidthSample copy = measure_copy_bandwidth(0);
  ASSERT_TRUE(copy.error.empty()) << copy.error;
  EXPECT_GT(copy.bytes_per_s, 1e11);
  if (const auto profile = this_gpus_profile()) {
    EXPECT_LT(copy.bytes_per_s, 1.1 * profile->hbm_bytes_per_s) << profile->key;
    EXPECT_GT(copy.bytes_per_s, profile->hbm_bytes_per_s / 3) << profile->key;
  }
}

TEST(BandwidthProbe, PeerBandwidthIsMeasuredAndPlausible) {
  if (gpu_count() < 2) GTEST_SKIP() << "needs two CUDA GPUs";
  const BandwidthSample peer = measure_peer_bandwidth(0, 1);
  ASSERT_TRUE(peer.error.empty()) << peer.error;
  if (const auto profile = this_gpus_profile()) {
    EXPECT_LT(peer.bytes_per_s, 1.1 * profile->link_bytes_per_s) << profile->key;
    EXPECT_GT(peer.bytes_per_s, profile->link_bytes_per_s / 3) << profile->key;
  }
}

}  // namespace
}  // namespace pkb::harness
