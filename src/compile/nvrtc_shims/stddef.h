// NVRTC ships no C library headers; size_t and ptrdiff_t are built in, libcu++ adds offsetof.
#pragma once
#include <cuda/std/cstddef>
