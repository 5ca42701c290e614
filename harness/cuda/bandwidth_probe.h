// Measured bandwidths for `pkb doctor` (issue 10): a device-to-device copy on one GPU (HBM traffic:
// every byte read once and written once) and a peer copy between two GPUs (one NVLink direction),
// timed with CUDA events over a few repetitions, so the hardware profile's datasheet numbers can be
// shown beside what this machine reaches. CUDA runtime only: pkb still starts without a driver.
// GPU code: compiled on the CPU machine, never run there.
#pragma once

#include <string>

namespace pkb::harness {

struct BandwidthSample {
  double bytes_per_s = 0;  // 0 when not measured
  std::string error;       // why not ("" when measured)
};

/// HBM bytes per second of a cudaMemcpy within `device` (2 x size per copy: read + write).
BandwidthSample measure_copy_bandwidth(int device, std::size_t bytes = std::size_t(256) << 20);

/// Bytes per second `src` pushes to `dst` with cudaMemcpyPeer (one direction), peer access enabled.
BandwidthSample measure_peer_bandwidth(int src, int dst,
                                       std::size_t bytes = std::size_t(256) << 20);

}  // namespace pkb::harness
