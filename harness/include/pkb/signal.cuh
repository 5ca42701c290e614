// pkb device header, part 5: pkb::SignalPad (plan arg "signals") and the cross-rank barriers built
// on it. Every rank owns a symmetric pad of kSignalWords uint32 words, zeroed by the harness before
// every correctness call and once before a timing run (never between timed iterations), so all
// state lives in the pad itself: epochs survive repeated calls and CUDA graph replay.
#pragma once

#include "pkb/memory.cuh"

namespace pkb {

// Word layout of one rank's pad (fixed: the harness zeroes and documents it). Enumerators, for
// the reason given in context.cuh.
enum : int {
  kSignalWords = 65536,      // 256 KiB per rank
  kBarrierSlots = 1024,      // barrier slots 0..1023
  kBarrierFlagBase = 0,      // flags[slot * kMaxRanks + src_rank]: the last epoch src sent
  kBarrierEpochBase = 8192,  // epoch[slot]: barriers this rank completed on slot
  kGridArrivalBase = 9216,   // arrivals[slot]: blocks of this rank inside barrier_grid
  kHarnessBase = 10240,      // [10240, 32768): reserved for the harness
  kUserBase = 32768,         // [32768, 65536): the candidate's own flags
  kUserWords = 32768,
};

/// Plan arg "signals". Layout fixed (the harness marshals it): 8 pointers + 2 ints, 72 bytes.
/// pad[r] is rank r's pad, mapped on this GPU; nullptr for r >= world.
struct SignalPad {
  unsigned int* pad[kMaxRanks];
  int rank;
  int world;

  /// Rank r's pad; a select rather than pad[r], so a runtime r keeps the struct out of local
  /// memory.
  __device__ __forceinline__ unsigned int* rank_pad(int r) const {
    unsigned int* p = pad[0];
#pragma unroll
    for (int i = 1; i < kMaxRanks; ++i) p = (r == i) ? pad[i] : p;
    return p;
  }

  /// Rank r's user area: kUserWords words, zero at the start of a call, free for any use.
  __device__ __forceinline__ unsigned int* user(int r) const { return rank_pad(r) + kUserBase; }
};

static_assert(sizeof(SignalPad) == 72, "pkb::SignalPad must be 72 bytes: the harness marshals it");
static_assert(alignof(SignalPad) == 8, "pkb::SignalPad must be 8-byte aligned");
static_assert(kBarrierSlots * kMaxRanks <= kBarrierEpochBase, "barrier flags overlap the epochs");
static_assert(kBarrierEpochBase + kBarrierSlots <= kGridArrivalBase, "epochs overlap arrivals");
static_assert(kUserBase + kUserWords == kSignalWords, "the user area must end the pad");

namespace detail {

// A bad slot would write outside the flag area (another slot's or the harness's words): trap.
__device__ __forceinline__ void check_slot(int slot) {
  if (slot < 0 || slot >= kBarrierSlots) __trap();
}

// Ranks first, first+step, ... send `epoch` to their slot flag on every pad, then wait until every
// rank has sent at least `epoch` to ours. A peer may already be one barrier ahead (it passed this
// one and entered the next on the same slot), hence >= rather than ==.
__device__ __forceinline__ void meet_ranks(const SignalPad& pad, int slot, unsigned epoch,
                                           int first, int step) {
  unsigned* const own = pad.rank_pad(pad.rank);
  for (int r = first; r < pad.world; r += step)
    st_release_sys(pad.rank_pad(r) + kBarrierFlagBase + slot * kMaxRanks + pad.rank, epoch);
  for (int r = first; r < pad.world; r += step)
    wait_until_ge(own + kBarrierFlagBase + slot * kMaxRanks + r, epoch);
}

}  // namespace detail

/// This block meets the blocks calling with the same slot on every rank; every thread of the block
/// must call it. Writes the block made before (to any rank's memory) are visible to those blocks
/// after it. One block per rank may use a slot at a time (blockIdx.x is the usual slot), and every
/// rank must pass the same slots the same number of times.
__device__ __forceinline__ void barrier_block(const SignalPad& pad, int slot) {
  detail::check_slot(slot);
  unsigned* const epoch_word = pad.rank_pad(pad.rank) + kBarrierEpochBase + slot;
  // The block's writes happen before the release stores below: __syncthreads orders them before
  // the signalling threads, and a release is cumulative over what its thread has observed. The
  // alias fence orders them for a later access through the other address of multicast memory.
  fence_proxy_alias();
  __syncthreads();
  const unsigned epoch = ld_relaxed_sys(epoch_word) + 1;
  // Thread r signals and waits for rank r, so the W round trips overlap.
  detail::meet_ranks(pad, slot, epoch, static_cast<int>(thread_rank_in_block()),
                     static_cast<int>(threads_in_block()));
  // Every thread has read the old epoch; the acquires above are ordered before the whole block's
  // later reads by this __syncthreads.
  __syncthreads();
  if (thread_rank_in_block() == 0) st_relaxed_sys(epoch_word, epoch);
}

/// Every block of this grid, on every rank, meets (a grid-wide barrier across ranks); every thread
/// of every block must call it with the same slot, which no block may use for barrier_block in the
/// same kernel (take one above the grid size, e.g. 1023). Needs all blocks resident at once: launch
/// with "cooperative": true in the plan (the launch fails if the grid cannot be co-resident); with
/// emulated ranks every rank's grid must also fit beside the others (size grids by ctx.num_sms).
__device__ __forceinline__ void barrier_grid(const SignalPad& pad, int slot) {
  detail::check_slot(slot);
  fence_proxy_alias();  // as in barrier_block
  __syncthreads();
  if (thread_rank_in_block() == 0) {
    unsigned* const own = pad.rank_pad(pad.rank);
    unsigned* const epoch_word = own + kBarrierEpochBase + slot;
    unsigned* const arrivals = own + kGridArrivalBase + slot;
    // Read before arriving: the epoch cannot move until this block has arrived.
    const unsigned epoch = ld_acquire_sys(epoch_word);
    if (atomic_add_acq_rel_sys(arrivals, 1) == blocks_in_grid() - 1) {
      // Last block of this rank: it has acquired every block's arrival, so its release stores
      // carry all of their writes to the other ranks. Reset the counter before releasing, so the
      // next barrier (maybe in a kernel with another grid size) starts from zero.
      st_relaxed_sys(arrivals, 0);
      detail::meet_ranks(pad, slot, epoch + 1, 0, 1);
      st_release_sys(epoch_word, epoch + 1);
    } else {
      wait_until_ne(epoch_word, epoch);
    }
  }
  __syncthreads();
}

}  // namespace pkb
