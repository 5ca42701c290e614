// NVRTC ships no C library headers: <stdint.h> forwards to libcu++, which defines the global
// fixed-width integer types and their limits under NVRTC.
#pragma once
#include <cuda/std/cstdint>
