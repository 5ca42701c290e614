// pkb device header, part 3: memory access with explicit ordering for memory other GPUs touch
// (inline PTX, system scope), 16-byte vector loads and stores, and the global nanosecond timer.
// Generic addressing throughout (no .global), so any pointer from the plan is valid.
#pragma once

#include "pkb/context.cuh"

namespace pkb {

/// Load that later loads and stores of this thread cannot move before (pairs with st_release_sys).
__device__ __forceinline__ unsigned ld_acquire_sys(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.sys.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

/// Load that always reads memory (never a stale register or L1 line) but orders nothing else.
__device__ __forceinline__ unsigned ld_relaxed_sys(const unsigned* p) {
  unsigned v;
  asm volatile("ld.relaxed.sys.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

/// Store that publishes every earlier write of this thread (and what it observed) to its reader.
__device__ __forceinline__ void st_release_sys(unsigned* p, unsigned v) {
  asm volatile("st.release.sys.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/// Store seen by other GPUs without ordering earlier writes.
__device__ __forceinline__ void st_relaxed_sys(unsigned* p, unsigned v) {
  asm volatile("st.relaxed.sys.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/// *p += v with release semantics; returns the old value.
__device__ __forceinline__ unsigned atomic_add_release_sys(unsigned* p, unsigned v) {
  unsigned old;
  asm volatile("atom.add.release.sys.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

/// *p += v with acquire and release semantics (an arrival counter); returns the old value.
__device__ __forceinline__ unsigned atomic_add_acq_rel_sys(unsigned* p, unsigned v) {
  unsigned old;
  asm volatile("atom.add.acq_rel.sys.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

/// *p += v with no ordering (a statistic, a ticket whose order is settled elsewhere).
__device__ __forceinline__ unsigned atomic_add_relaxed_sys(unsigned* p, unsigned v) {
  unsigned old;
  asm volatile("atom.add.relaxed.sys.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

/// Full fence at system scope: orders this thread's earlier accesses before its later ones for
/// every observer (what __threadfence_system() does).
__device__ __forceinline__ void fence_acq_rel_sys() {
  asm volatile("fence.acq_rel.sys;" ::: "memory");
}

/// Orders this thread's accesses to memory it reaches through two addresses (a multicast address
/// and the unicast one of the same bytes): the PTX ISA asks for it between such accesses, even
/// when a barrier or a release/acquire already orders them. barrier_block and barrier_grid call it.
__device__ __forceinline__ void fence_proxy_alias() { asm volatile("fence.proxy.alias;" ::: "memory"); }

/// 16-byte load; p must be 16-byte aligned. Plain (weak): use it for data that nobody writes
/// while this kernel runs, or that a barrier or an acquire has already ordered.
__device__ __forceinline__ uint4 load128(const void* p) { return *static_cast<const uint4*>(p); }

/// 16-byte store; p must be 16-byte aligned. Peers see it after a later release (or barrier).
__device__ __forceinline__ void store128(void* p, uint4 v) { *static_cast<uint4*>(p) = v; }

/// Nanoseconds from the GPU's global timer (the same clock on every GPU of a node, roughly).
__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// For hand-written spin loops: traps once PKB_SPIN_TIMEOUT_NS has passed since start_ns (from
/// globaltimer_ns()), so a wait that can never finish becomes a fast runtime error, not a hang.
__device__ __forceinline__ void check_spin_timeout(unsigned long long start_ns) {
  if (globaltimer_ns() - start_ns > (unsigned long long)(PKB_SPIN_TIMEOUT_NS)) __trap();
}

/// Spins until *flag >= value (wrap-safe, acquire), trapping after PKB_SPIN_TIMEOUT_NS.
__device__ __forceinline__ void wait_until_ge(const unsigned* flag, unsigned value) {
  const unsigned long long start = globaltimer_ns();
  while (static_cast<int>(ld_acquire_sys(flag) - value) < 0) check_spin_timeout(start);
}

/// Spins until *flag != value (acquire), trapping after PKB_SPIN_TIMEOUT_NS.
__device__ __forceinline__ void wait_until_ne(const unsigned* flag, unsigned value) {
  const unsigned long long start = globaltimer_ns();
  while (ld_acquire_sys(flag) == value) check_spin_timeout(start);
}

}  // namespace pkb
