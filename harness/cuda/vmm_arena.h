// A bump allocator over virtual-memory-managed device memory: one
// large VA reservation per arena, physical chunks created on one device and mapped on demand,
// with access granted to a fixed list of devices. Symmetric buffers take one arena per rank (so
// every rank's kernels can read and write every rank's copy without cuCtxEnablePeerAccess), local
// buffers another per rank. VMM mappings belong to no context, which is what lets green contexts
// (emulation) use them. Nothing is freed before the arena goes: allocations live for one sample.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <vector>

namespace pkb::harness {

class VmmArena {
 public:
  /// Memory lives on `device`; `access` lists every device that may touch it (at least `device`).
  /// Reserves `reserve_bytes` of address space (cheap; no memory yet).
  VmmArena(CUdevice device, std::vector<CUdevice> access, std::uint64_t reserve_bytes,
           std::uint64_t min_chunk_bytes);
  ~VmmArena();
  VmmArena(const VmmArena&) = delete;
  VmmArena& operator=(const VmmArena&) = delete;

  /// `bytes` at a 256-byte aligned address; throws pkb::Error when the reservation is full and
  /// CudaError when the device is out of memory.
  CUdeviceptr alloc(std::uint64_t bytes);
  std::uint64_t mapped_bytes() const { return mapped_; }

 private:
  void map_chunk(std::uint64_t at_least);

  CUdevice device_;
  std::vector<CUdevice> access_;
  CUdeviceptr base_ = 0;
  std::uint64_t reserved_ = 0;
  std::uint64_t granularity_ = 0;
  std::uint64_t min_chunk_ = 0;
  std::uint64_t mapped_ = 0;  // bytes from base_ backed by memory
  std::uint64_t used_ = 0;    // bytes from base_ handed out
  struct Chunk {
    CUmemGenericAllocationHandle handle;
    CUdeviceptr address;
    std::uint64_t bytes;
  };
  std::vector<Chunk> chunks_;
};

/// The allocation properties of pinned device memory on `device` (shared with multicast).
CUmemAllocationProp device_memory_prop(CUdevice device);
/// Read-write access descriptors for every device in `devices`.
std::vector<CUmemAccessDesc> read_write_access(const std::vector<CUdevice>& devices);
std::uint64_t round_up(std::uint64_t value, std::uint64_t multiple);

}  // namespace pkb::harness
