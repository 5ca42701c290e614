// Empty: the CUDA math functions (sqrtf, expf, fmaf, ...) are built into NVRTC; kept so
// #include <math.h> compiles. std:: overloads are not provided: use the f-suffixed functions.
#pragma once
