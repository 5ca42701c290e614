// NVRTC ships no C library headers: CHAR_BIT, INT_MAX and friends come from libcu++.
#pragma once
#include <cuda/std/climits>
