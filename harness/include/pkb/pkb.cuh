// The pkb device header: what a candidate's kernels may use besides CUDA's own headers. The harness
// pre-includes it (--pre-include=pkb/pkb.cuh), so a candidate never includes it itself. It gives
// the multi-GPU vocabulary (rank, peers, signals, barriers, multicast) and never computes an
// answer. Device-only; compiles under NVRTC with no host code. Contract: docs/ABI.md.
#pragma once

#include "pkb/context.cuh"    // macros, types, pkb::Context
#include "pkb/memory.cuh"     // ordered u32 access, 16-byte loads/stores, timeouts
#include "pkb/multicast.cuh"  // multimem.* (only when PKB_HAS_MULTICAST)
#include "pkb/peers.cuh"      // pkb::Peers<T>
#include "pkb/precision.cuh"  // PKB_DTYPE, pkb::P, to_float, from_float, P packs
#include "pkb/signal.cuh"     // pkb::SignalPad, barrier_block, barrier_grid
#include "pkb/vector.cuh"     // bf16x8 / f16x8 / f32x4 packs
