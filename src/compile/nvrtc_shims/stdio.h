// Empty: printf is built into NVRTC; kept so #include <stdio.h> compiles.
#pragma once
