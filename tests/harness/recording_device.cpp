// RecordingDevice: fake heaps and a call log.
#include "tests/harness/recording_device.h"

#include <cstdio>

namespace pkb::harness {

std::string RecordingDevice::hex(DevAddr addr) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(addr));
  return text;
}

DevAddr RecordingDevice::bump(int rank, std::uint64_t bytes) {
  // Rank r's fake heap starts at (r + 1) << 40, far from every other rank's.
  if (!next_.count(rank)) next_[rank] = DevAddr(rank + 1) << 40;
  const DevAddr addr = next_[rank];
  next_[rank] += (bytes + 255) / 256 * 256;
  allocations.push_back({rank, addr, bytes});
  return addr;
}

SymmetricAlloc RecordingDevice::alloc_symmetric(std::uint64_t bytes_per_rank) {
  SymmetricAlloc alloc;
  for (int rank = 0; rank < world_; ++rank) alloc.addr.push_back(bump(rank, bytes_per_rank));
  alloc.bytes = bytes_per_rank;
  return alloc;
}

SymmetricAlloc RecordingDevice::alloc_multicast(std::uint64_t bytes_per_rank) {
  SymmetricAlloc alloc = alloc_symmetric(bytes_per_rank);
  alloc.multicast_addr = DevAddr(0xAC) << 40;
  return alloc;
}

DevAddr RecordingDevice::alloc_local(int rank, std::uint64_t bytes) { return bump(rank, bytes); }

void RecordingDevice::write(int rank, DevAddr dst, const void*, std::uint64_t bytes) {
  note(rank, -1, "write " + hex(dst) + " " + std::to_string(bytes));
}

void RecordingDevice::read(int rank, DevAddr src, void*, std::uint64_t bytes) {
  note(rank, -1, "read " + hex(src) + " " + std::to_string(bytes));
}

void RecordingDevice::note(int rank, int stream, const std::string& what) {
  log.push_back("r" + std::to_string(rank) + (stream >= 0 ? " s" + std::to_string(stream) : "") + " " + what);
}

void RecordingDevice::launch(int rank, int stream, const KernelLaunch& launch) {
  auto dims = [](const plan::Dim3& d) {
    return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
  };
  note(rank, stream, "launch " + launch.kernel + " grid " + dims(launch.grid) + " block " + dims(launch.block) +
                         " shared " + std::to_string(launch.shared_bytes));
  launches.push_back(launch);
  launch_ranks.push_back(rank);
}

void RecordingDevice::memset(int rank, int stream, DevAddr dst, std::uint8_t value, std::uint64_t bytes) {
  note(rank, stream, "memset " + hex(dst) + " " + std::to_string(value) + " " + std::to_string(bytes));
}

void RecordingDevice::copy(int rank, int stream, DevAddr dst, DevAddr src, std::uint64_t bytes) {
  note(rank, stream, "copy " + hex(dst) + " " + hex(src) + " " + std::to_string(bytes));
}

void RecordingDevice::gemm(int rank, int stream, const GemmCall& c) {
  note(rank, stream, "gemm " + hex(c.a) + " " + hex(c.b) + " " + hex(c.c) + " " + std::to_string(c.m) + "x" +
                         std::to_string(c.n) + "x" + std::to_string(c.k) + " ld " + std::to_string(c.lda) + "," +
                         std::to_string(c.ldb) + "," + std::to_string(c.ldc) + " " +
                         std::string(dtype_name(c.ab_dtype)) + "->" + std::string(dtype_name(c.c_dtype)));
}

void RecordingDevice::collective(int rank, int stream, const CollectiveCall& c) {
  note(rank, stream, "collective " + std::string(plan::collective_kind_name(c.kind)) + " " + hex(c.send) + " " +
                         hex(c.recv) + " " + std::to_string(c.count) + " " + std::string(dtype_name(c.dtype)));
}

void RecordingDevice::barrier(int rank, int stream) { note(rank, stream, "barrier"); }

void RecordingDevice::delay(int rank, int stream, std::uint64_t ns) {
  note(rank, stream, "delay " + std::to_string(ns));
}

void RecordingDevice::record(int rank, int stream, int event) {
  note(rank, stream, "record " + std::to_string(event));
}

void RecordingDevice::wait(int rank, int stream, int event) { note(rank, stream, "wait " + std::to_string(event)); }

double RecordingDevice::elapsed_ms(int rank, int start_event, int end_event) {
  note(rank, -1, "elapsed " + std::to_string(start_event) + " " + std::to_string(end_event));
  return 0;
}

SyncResult RecordingDevice::synchronize(double) {
  log.push_back("synchronize");
  return {};
}

}  // namespace pkb::harness
