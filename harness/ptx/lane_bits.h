// Bit counting on lane masks (C++17 has no <bit> counting functions; these are GCC/Clang builtins).
#pragma once

#include <cstdint>

namespace pkb::ptx {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

inline int lane_count(std::uint32_t mask) { return __builtin_popcount(mask); }
/// The lowest lane of a non-empty mask.
inline int first_lane(std::uint32_t mask) { return __builtin_ctz(mask); }
inline int popcount64(std::uint64_t v) { return __builtin_popcountll(v); }
inline int leading_zeros64(std::uint64_t v) { return v == 0 ? 64 : __builtin_clzll(v); }

}  // namespace pkb::ptx
