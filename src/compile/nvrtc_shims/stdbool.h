// Empty: bool, true and false are keywords in C++; kept so C-style includes compile under NVRTC.
#pragma once
