// The CUDA math functions (sqrtf, expf, fmaf, ...) are built into NVRTC; this stand-in adds the C
// macros a kernel expects from <math.h> (INFINITY, NAN, HUGE_VALF, HUGE_VAL), which NVRTC lacks.
// std:: overloads are not provided: use the f-suffixed functions. pkb.cuh includes it, as nvcc
// makes these names available everywhere.
#pragma once

#ifndef INFINITY
#define INFINITY (__int_as_float(0x7f800000))
#endif
#ifndef NAN
#define NAN (__int_as_float(0x7fffffff))
#endif
#ifndef HUGE_VALF
#define HUGE_VALF INFINITY
#endif
#ifndef HUGE_VAL
#define HUGE_VAL (__longlong_as_double(0x7ff0000000000000LL))
#endif
