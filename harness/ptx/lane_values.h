// Reading a register slot as a C++ value of an instruction's type and writing one back, and the
// handler shapes most instructions share (d = f(a), d = f(a, b), d = f(a, b, c)). Each handler is
// a template instantiated per type at decode time, so the lane loop has no type switch.
#pragma once

#include <cstdint>
#include <type_traits>

#include "harness/ptx/exec_state.h"

namespace pkb::ptx {

template <class T>
inline T get(std::uint64_t slot) {
  if constexpr (std::is_same_v<T, float>) return as_f32(slot);
  else if constexpr (std::is_same_v<T, double>) return as_f64(slot);
  else return static_cast<T>(slot);  // truncation to the type's width
}

template <class T>
inline std::uint64_t put(T value) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return bits_of(value);
  else return static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(value));
}

/// d = Op::apply(a) for every lane.
template <class T, class Op>
void unary(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) { d[lane] = put<T>(Op::template apply<T>(get<T>(a[lane]), in)); });
}

/// d = Op::apply(a, b) for every lane.
template <class T, class Op>
void binary(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    d[lane] = put<T>(Op::template apply<T>(get<T>(a[lane]), get<T>(b[lane]), in));
  });
}

/// d = Op::apply(a, b, c) for every lane.
template <class T, class Op>
void ternary(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2), c = source(s, in, 3);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    d[lane] = put<T>(Op::template apply<T>(get<T>(a[lane]), get<T>(b[lane]), get<T>(c[lane]), in));
  });
}

/// Picks Handler<T> for a PTX integer or bit type (b types as unsigned).
template <template <class> class H>
Handler integer_handler(Type type) {
  switch (type) {
    case Type::u8: case Type::b8: return H<std::uint8_t>::run;
    case Type::s8: return H<std::int8_t>::run;
    case Type::u16: case Type::b16: return H<std::uint16_t>::run;
    case Type::s16: return H<std::int16_t>::run;
    case Type::u32: case Type::b32: return H<std::uint32_t>::run;
    case Type::s32: return H<std::int32_t>::run;
    case Type::u64: case Type::b64: return H<std::uint64_t>::run;
    case Type::s64: return H<std::int64_t>::run;
    default: return nullptr;
  }
}

}  // namespace pkb::ptx
