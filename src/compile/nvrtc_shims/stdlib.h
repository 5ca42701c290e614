// NVRTC ships no C library headers: abs, div and malloc come from libcu++ (as cuda::std::).
#pragma once
#include <cuda/std/cstdlib>
