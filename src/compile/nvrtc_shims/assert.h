// Empty: assert is built into NVRTC; kept so #include <assert.h> compiles.
#pragma once
