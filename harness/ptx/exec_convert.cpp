// cvt in every form: integer <-> integer (truncate, extend, .sat clamps), float -> integer (.rni
// .rzi .rmi .rpi; NaN gives 0 and out-of-range values saturate), integer -> float and float <->
// float (.rn .rz .rm .rp, .rni .. to an integral value, .ftz, .sat to [0, 1], .relu, .satfinite),
// and the packing forms (f16x2, bf16x2, e4m3x2, e5m2x2 from two f32: the first source goes to the
// high half; e4m3x2, e5m2x2 from f16x2 or bf16x2, high to high), and unpacking (f16x2 from fp8x2).
// Compiled with -frounding-math: directed rounding sets the host's mode.
#include <cfenv>
#include <cmath>
#include <limits>

#include "harness/ptx/decode.h"
#include "harness/ptx/float_formats.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

bool is_integer(Type t) { return !is_float(t) && t != Type::pred && t != Type::none; }

// The value of a source in `type` as long double (exact for every integer up to 64 bits and every
// float format).
long double read(Type type, std::uint64_t slot) {
  switch (type) {
    case Type::u8: return static_cast<std::uint8_t>(slot);
    case Type::u16: case Type::b16: return static_cast<std::uint16_t>(slot);
    case Type::u32: case Type::b32: return static_cast<std::uint32_t>(slot);
    case Type::u64: case Type::b64: return static_cast<long double>(slot);
    case Type::s8: case Type::b8: return static_cast<std::int8_t>(slot);
    case Type::s16: return static_cast<std::int16_t>(slot);
    case Type::s32: return static_cast<std::int32_t>(slot);
    case Type::s64: return static_cast<std::int64_t>(slot);
    case Type::f16: case Type::bf16: return half_to_double(type, static_cast<std::uint16_t>(slot));
    case Type::f32: case Type::tf32: return as_f32(slot);
    case Type::f64: return as_f64(slot);
    case Type::e4m3: return e4m3_to_double(static_cast<std::uint8_t>(slot));
    case Type::e5m2: return e5m2_to_double(static_cast<std::uint8_t>(slot));
    default: return 0;
  }
}

int host_rounding(Round round) {
  switch (round) {
    case Round::rz: case Round::rzi: return FE_TOWARDZERO;
    case Round::rm: case Round::rmi: return FE_DOWNWARD;
    case Round::rp: case Round::rpi: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

long double integral(long double v, Round round) {
  switch (round) {
    case Round::rzi: return std::trunc(v);
    case Round::rmi: return std::floor(v);
    case Round::rpi: return std::ceil(v);
    default: return std::nearbyint(v);  // rni: to nearest even
  }
}

// Float (or integer) value -> integer type, saturating; NaN -> 0.
std::uint64_t to_integer(Type dst, long double v, bool from_float, bool sat) {
  if (from_float && std::isnan(v)) return 0;
  long double lo, hi;
  switch (dst) {
    case Type::u8: lo = 0; hi = 255; break;
    case Type::s8: lo = -128; hi = 127; break;
    case Type::u16: case Type::b16: lo = 0; hi = 65535; break;
    case Type::s16: lo = -32768; hi = 32767; break;
    case Type::u32: case Type::b32: lo = 0; hi = 4294967295.0L; break;
    case Type::s32: lo = -2147483648.0L; hi = 2147483647.0L; break;
    case Type::u64: case Type::b64: lo = 0; hi = 18446744073709551615.0L; break;
    default: lo = -9223372036854775808.0L; hi = 9223372036854775807.0L; break;
  }
  if (from_float || sat) {
    if (v < lo) v = lo;
    if (v > hi) v = hi;
  }
  if (dst == Type::u64 || dst == Type::b64) return static_cast<std::uint64_t>(v);
  if (lo == 0 && !from_float && !sat) return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
}

std::uint64_t to_float(Type dst, long double v, Round round, const Instr& in) {
  const bool sat = in.mods & kSat, relu = in.mods & kRelu, satfinite = in.mods & kSatFinite;
  if (sat) v = std::isnan(v) ? 0.0L : v < 0 ? 0.0L : v > 1 ? 1.0L : v;
  if (relu && !std::isnan(v) && v < 0) v = 0;
  const Round r = round == Round::none ? Round::rn : round;
  switch (dst) {
    case Type::f64: {
      const int mode = host_rounding(r);
      if (mode != FE_TONEAREST) std::fesetround(mode);
      const double out = static_cast<double>(v);
      if (mode != FE_TONEAREST) std::fesetround(FE_TONEAREST);
      return bits_of(out);
    }
    case Type::f32: {
      const int mode = host_rounding(r);
      if (mode != FE_TONEAREST) std::fesetround(mode);
      float out = static_cast<float>(v);
      if (mode != FE_TONEAREST) std::fesetround(FE_TONEAREST);
      if (in.mods & kFtz) out = flush_f32(out);
      return bits_of(out);
    }
    case Type::tf32: return f32_to_tf32(static_cast<float>(v), r);
    case Type::f16: case Type::bf16: return double_to_half(dst, static_cast<double>(v), r, satfinite);
    case Type::e4m3: return double_to_e4m3(static_cast<double>(v), r, true);
    case Type::e5m2: return double_to_e5m2(static_cast<double>(v), r, satfinite);
    default: return 0;
  }
}

void convert(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1);
  std::uint64_t* d = dest(s, in, 0);
  const Type dst = in.type, src = in.type2;
  const bool src_float = is_float(src);
  const bool ftz = in.mods & kFtz;
  each_lane(mask, [&](int lane) {
    long double v = read(src, a[lane]);
    if (ftz && src == Type::f32) v = flush_f32(static_cast<float>(v));
    if (is_integer(dst)) {
      if (src_float) v = integral(v, in.round == Round::none ? Round::rzi : in.round);
      if (!src_float && !(in.mods & kSat)) {
        // Integer to integer: plain truncation or extension of the bits.
        const std::uint64_t bits = is_signed(src) ? static_cast<std::uint64_t>(static_cast<std::int64_t>(v))
                                                  : static_cast<std::uint64_t>(v);
        d[lane] = bits;
        return;
      }
      d[lane] = to_integer(dst, v, src_float, in.mods & kSat);
      return;
    }
    const bool integral_round = in.round == Round::rni || in.round == Round::rzi ||
                                in.round == Round::rmi || in.round == Round::rpi;
    if (integral_round) {
      d[lane] = to_float(dst, integral(v, in.round), Round::rn, in);
      return;
    }
    d[lane] = to_float(dst, v, in.round, in);
  });
}

// Two f32 sources packed into one register: d = {high: convert(a), low: convert(b)}.
void convert_pack(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2);
  std::uint64_t* d = dest(s, in, 0);
  const Type element = in.type == Type::f16x2 ? Type::f16 : in.type == Type::bf16x2 ? Type::bf16
                       : in.type == Type::e4m3x2 ? Type::e4m3 : Type::e5m2;
  const int shift = element == Type::e4m3 || element == Type::e5m2 ? 8 : 16;
  each_lane(mask, [&](int lane) {
    const long double hi = as_f32(a[lane]), lo = as_f32(b[lane]);
    d[lane] = (to_float(element, hi, in.round, in) << shift) | to_float(element, lo, in.round, in);
  });
}

// f16x2 from e4m3x2 / e5m2x2: each byte widened to f16 (exact), low byte to the low half.
void convert_unpack(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1);
  std::uint64_t* d = dest(s, in, 0);
  const bool e4m3 = in.type2 == Type::e4m3x2;
  each_lane(mask, [&](int lane) {
    const auto bytes = static_cast<std::uint16_t>(a[lane]);
    auto widen = [&](std::uint8_t byte) {
      double v = e4m3 ? e4m3_to_double(byte) : e5m2_to_double(byte);
      if ((in.mods & kRelu) && v < 0) v = 0;
      return static_cast<std::uint32_t>(double_to_f16(v, Round::rn));
    };
    d[lane] = widen(static_cast<std::uint8_t>(bytes)) | widen(static_cast<std::uint8_t>(bytes >> 8)) << 16;
  });
}

// e4m3x2 / e5m2x2 from f16x2 (or bf16x2): each half narrowed, the high half to the high byte.
void convert_narrow_pair(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1);
  std::uint64_t* d = dest(s, in, 0);
  const Type half = in.type2 == Type::bf16x2 ? Type::bf16 : Type::f16;
  const Type element = in.type == Type::e4m3x2 ? Type::e4m3 : Type::e5m2;
  each_lane(mask, [&](int lane) {
    const auto word = static_cast<std::uint32_t>(a[lane]);
    const long double hi = half_to_double(half, static_cast<std::uint16_t>(word >> 16));
    const long double lo = half_to_double(half, static_cast<std::uint16_t>(word));
    d[lane] = (to_float(element, hi, in.round, in) << 8) | to_float(element, lo, in.round, in);
  });
}

// Fast paths for the conversions every bf16 kernel runs.
void bf16_to_f32(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) { d[lane] = static_cast<std::uint64_t>(static_cast<std::uint16_t>(a[lane])) << 16; });
}

void f32_to_bf16_rn(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    const auto bits = static_cast<std::uint32_t>(a[lane]);
    if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x7FFFFFu)) {
      d[lane] = 0x7FFF;  // NaN: the GPU's canonical bf16 NaN
      return;
    }
    d[lane] = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
  });
}

template <class From, class To>
void integer_cast(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) { d[lane] = put<To>(static_cast<To>(get<From>(a[lane]))); });
}

}  // namespace

bool decode_convert(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  if (q.base() != "cvt") return false;
  const int round = q.take_one({"rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi"});
  if (round >= 0) instr.round = static_cast<Round>(static_cast<int>(Round::rn) + round);
  if (q.take("ftz")) instr.mods |= kFtz;
  if (q.take("sat")) instr.mods |= kSat;
  if (q.take("relu")) instr.mods |= kRelu;
  if (q.take("satfinite")) instr.mods |= kSatFinite;
  const std::vector<Type> types = q.take_types();
  if (types.size() != 2) {
    mark_unsupported(input, instr, "types");
    return true;
  }
  instr.type = types[0];
  instr.type2 = types[1];
  const Type dst = types[0], src = types[1];
  if (src == Type::f32) narrow_f32_immediates(instr);
  const bool packs = dst == Type::f16x2 || dst == Type::bf16x2 || dst == Type::e4m3x2 || dst == Type::e5m2x2;
  if (packs && src == Type::f32) {
    instr.handler = instr.nops == 3 ? convert_pack : nullptr;
  } else if (dst == Type::f16x2 && (src == Type::e4m3x2 || src == Type::e5m2x2)) {
    instr.handler = instr.nops == 2 ? convert_unpack : nullptr;
  } else if ((dst == Type::e4m3x2 || dst == Type::e5m2x2) && (src == Type::f16x2 || src == Type::bf16x2)) {
    instr.handler = instr.nops == 2 ? convert_narrow_pair : nullptr;
  } else if (packs || src == Type::f16x2 || src == Type::bf16x2 || src == Type::e4m3x2 || src == Type::e5m2x2) {
    instr.handler = nullptr;
  } else if (instr.nops == 2) {
    const bool plain = instr.mods == 0;
    if (plain && dst == Type::f32 && src == Type::bf16) instr.handler = bf16_to_f32;
    else if (plain && dst == Type::bf16 && src == Type::f32 && instr.round == Round::rn) instr.handler = f32_to_bf16_rn;
    else if (plain && round < 0 && dst == Type::u64 && src == Type::u32) instr.handler = integer_cast<std::uint32_t, std::uint64_t>;
    else if (plain && round < 0 && dst == Type::s64 && src == Type::s32) instr.handler = integer_cast<std::int32_t, std::int64_t>;
    else if (plain && round < 0 && dst == Type::u32 && src == Type::u64) instr.handler = integer_cast<std::uint64_t, std::uint32_t>;
    else instr.handler = convert;
  }
  if (!instr.handler) mark_unsupported(input, instr, "this conversion");
  return true;
}

}  // namespace pkb::ptx
