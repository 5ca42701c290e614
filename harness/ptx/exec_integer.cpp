// Integer arithmetic: add sub mul mad (lo, hi, wide, sat, the .cc carry chain) mul24 mad24 sad
// div rem abs neg min max (also .s16x2 .u16x2) popc clz bfind brev bfe bfi. Semantics as the PTX
// ISA defines them: wrap-around arithmetic, shifts and bit positions clamped, division by zero
// giving all ones (unsigned) as the hardware does rather than trapping the host.
#include <algorithm>
#include <limits>

#include "harness/ptx/decode.h"
#include "harness/ptx/lane_bits.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

template <class T>
using U = std::make_unsigned_t<T>;

template <class T>
T wrap_add(T a, T b) { return static_cast<T>(static_cast<U<T>>(a) + static_cast<U<T>>(b)); }
template <class T>
T wrap_sub(T a, T b) { return static_cast<T>(static_cast<U<T>>(a) - static_cast<U<T>>(b)); }
template <class T>
T wrap_mul(T a, T b) { return static_cast<T>(static_cast<U<T>>(a) * static_cast<U<T>>(b)); }

template <class T>
T saturate_s32(Int128 v) {
  if constexpr (!std::is_same_v<T, std::int32_t>) return static_cast<T>(v);  // .sat is s32 only
  else {
    if (v > std::numeric_limits<std::int32_t>::max()) return std::numeric_limits<std::int32_t>::max();
    if (v < std::numeric_limits<std::int32_t>::min()) return std::numeric_limits<std::int32_t>::min();
    return static_cast<T>(v);
  }
}

// The high half of a full product.
template <class T>
T mul_high(T a, T b) {
  if constexpr (sizeof(T) == 8) {
    using W = std::conditional_t<std::is_signed_v<T>, Int128, UInt128>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> 64);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> (8 * sizeof(T)));
  }
}

template <class T>
struct Add {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) {
    const Src a = source(s, in, 1), b = source(s, in, 2);
    std::uint64_t* d = dest(s, in, 0);
    const bool sat = in.mods & kSat, carry_in = in.mods & kCarryIn, carry_out = in.mods & kCarryOut;
    const bool subtract = in.aux == 1;
    each_lane(mask, [&](int lane) {
      const T x = get<T>(a[lane]), y = get<T>(b[lane]);
      if (sat) {
        const Int128 v = subtract ? static_cast<Int128>(x) - y : static_cast<Int128>(x) + y;
        d[lane] = put<T>(saturate_s32<T>(v));
        return;
      }
      const U<T> ux = static_cast<U<T>>(x), uy = static_cast<U<T>>(y);
      const U<T> cin = carry_in ? static_cast<U<T>>((s.warp.carry >> lane) & 1) : 0;
      U<T> r;
      bool cout;
      if (!subtract) {
        r = static_cast<U<T>>(ux + uy + cin);
        cout = static_cast<UInt128>(ux) + uy + cin > static_cast<U<T>>(~U<T>{0});
      } else {
        // sub.cc / subc: the carry is a borrow (CC.CF set when a borrow occurred).
        r = static_cast<U<T>>(ux - uy - cin);
        cout = static_cast<UInt128>(uy) + cin > ux;
      }
      if (carry_out) s.warp.carry = (s.warp.carry & ~(1u << lane)) | (cout ? 1u << lane : 0);
      d[lane] = put<T>(static_cast<T>(r));
    });
  }
};

// mul / mad with .lo .hi .wide (.wide writes the double-width type), mad's .sat (s32 .hi only).
template <class T>
struct MulAdd {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) {
    const bool mad = in.aux == 1;
    const Src a = source(s, in, 1), b = source(s, in, 2);
    const Src c = mad ? source(s, in, 3) : Src{reinterpret_cast<const std::uint64_t*>(&in.ops[0].imm), 0};
    std::uint64_t* d = dest(s, in, 0);
    const bool carry_in = in.mods & kCarryIn, carry_out = in.mods & kCarryOut;
    each_lane(mask, [&](int lane) {
      const T x = get<T>(a[lane]), y = get<T>(b[lane]);
      if constexpr (sizeof(T) <= 4) {
        if (in.mods & kWide) {
          // The double-width product (plus c, which is already double width, for mad.wide).
          using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
          W v = static_cast<W>(x) * static_cast<W>(y);
          if (mad) {
            using C = std::conditional_t<std::is_signed_v<T>, std::conditional_t<sizeof(T) == 4, std::int64_t, std::int32_t>,
                                         std::conditional_t<sizeof(T) == 4, std::uint64_t, std::uint32_t>>;
            v = static_cast<W>(static_cast<std::uint64_t>(v) + static_cast<std::uint64_t>(static_cast<W>(get<C>(c[lane]))));
          }
          d[lane] = static_cast<std::uint64_t>(v);
          return;
        }
      }
      T r = (in.mods & kHi) ? mul_high(x, y) : wrap_mul(x, y);
      if (mad) {
        const T z = get<T>(c[lane]);
        if (in.mods & kSat) {
          r = saturate_s32<T>(static_cast<Int128>(r) + z);
        } else {
          const U<T> cin = carry_in ? static_cast<U<T>>((s.warp.carry >> lane) & 1) : 0;
          const UInt128 sum = static_cast<UInt128>(static_cast<U<T>>(r)) + static_cast<U<T>>(z) + cin;
          if (carry_out) {
            const bool cout = sum > static_cast<U<T>>(~U<T>{0});
            s.warp.carry = (s.warp.carry & ~(1u << lane)) | (cout ? 1u << lane : 0);
          }
          r = static_cast<T>(static_cast<U<T>>(sum));
        }
      }
      d[lane] = put<T>(r);
    });
  }
};

// mul24 / mad24: the product of the low 24 bits (.lo: its low 32 bits, .hi: bits 16..47).
template <class T>
struct Mul24 {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) {
    const bool mad = in.aux == 1;
    const Src a = source(s, in, 1), b = source(s, in, 2);
    const Src c = mad ? source(s, in, 3) : Src{reinterpret_cast<const std::uint64_t*>(&in.ops[0].imm), 0};
    std::uint64_t* d = dest(s, in, 0);
    each_lane(mask, [&](int lane) {
      std::int64_t x, y;
      if constexpr (std::is_signed_v<T>) {
        x = static_cast<std::int32_t>(static_cast<std::uint32_t>(a[lane]) << 8) >> 8;
        y = static_cast<std::int32_t>(static_cast<std::uint32_t>(b[lane]) << 8) >> 8;
      } else {
        x = static_cast<std::int64_t>(a[lane] & 0xFFFFFF);
        y = static_cast<std::int64_t>(b[lane] & 0xFFFFFF);
      }
      const auto p = static_cast<std::uint64_t>(x * y);
      std::uint32_t r = (in.mods & kHi) ? static_cast<std::uint32_t>(p >> 16) : static_cast<std::uint32_t>(p);
      if (mad) r += static_cast<std::uint32_t>(c[lane]);
      d[lane] = r;
    });
  }
};

struct DivOp {
  template <class T>
  static T apply(T a, T b, const Instr&) {
    if (b == 0) return static_cast<T>(~U<T>{0});  // the hardware's answer; the host would trap
    if constexpr (std::is_signed_v<T>)
      if (a == std::numeric_limits<T>::min() && b == -1) return a;
    return static_cast<T>(a / b);
  }
};
struct RemOp {
  template <class T>
  static T apply(T a, T b, const Instr&) {
    if (b == 0) return a;
    if constexpr (std::is_signed_v<T>)
      if (b == -1) return 0;
    return static_cast<T>(a % b);
  }
};
struct MinOp {
  template <class T>
  static T apply(T a, T b, const Instr& in) {
    T r = a < b ? a : b;
    if constexpr (std::is_signed_v<T>)
      if ((in.mods & kRelu) && r < 0) r = 0;
    return r;
  }
};
struct MaxOp {
  template <class T>
  static T apply(T a, T b, const Instr& in) {
    T r = a > b ? a : b;
    if constexpr (std::is_signed_v<T>)
      if ((in.mods & kRelu) && r < 0) r = 0;
    return r;
  }
};
struct AbsOp {
  template <class T>
  static T apply(T a, const Instr&) {
    if constexpr (std::is_signed_v<T>) return a < 0 ? wrap_sub<T>(0, a) : a;
    return a;
  }
};
struct NegOp {
  template <class T>
  static T apply(T a, const Instr&) { return wrap_sub<T>(0, a); }
};

template <class T, class Op>
struct Binary {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) { binary<T, Op>(s, in, mask); }
};
template <class T, class Op>
struct Unary {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) { unary<T, Op>(s, in, mask); }
};
template <class T> using Div = Binary<T, DivOp>;
template <class T> using Rem = Binary<T, RemOp>;
template <class T> using Min = Binary<T, MinOp>;
template <class T> using Max = Binary<T, MaxOp>;
template <class T> using Abs = Unary<T, AbsOp>;
template <class T> using Neg = Unary<T, NegOp>;

// sad: d = c + |a - b|.
template <class T>
struct Sad {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) {
    const Src a = source(s, in, 1), b = source(s, in, 2), c = source(s, in, 3);
    std::uint64_t* d = dest(s, in, 0);
    each_lane(mask, [&](int lane) {
      const T x = get<T>(a[lane]), y = get<T>(b[lane]);
      const U<T> diff = x > y ? static_cast<U<T>>(static_cast<U<T>>(x) - static_cast<U<T>>(y))
                              : static_cast<U<T>>(static_cast<U<T>>(y) - static_cast<U<T>>(x));
      d[lane] = put<T>(static_cast<T>(static_cast<U<T>>(get<T>(c[lane])) + diff));
    });
  }
};

// Bit counts: the result is always a u32.
template <class T>
struct BitCount {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) {
    const Src a = source(s, in, 1);
    std::uint64_t* d = dest(s, in, 0);
    const int kind = in.aux;  // 0 popc, 1 clz, 2 bfind
    each_lane(mask, [&](int lane) {
      const T v = get<T>(a[lane]);
      const U<T> u = static_cast<U<T>>(v);
      std::uint32_t r;
      if (kind == 0) {
        r = static_cast<std::uint32_t>(popcount64(static_cast<std::uint64_t>(u)));
      } else if (kind == 1) {
        r = static_cast<std::uint32_t>(leading_zeros64(static_cast<std::uint64_t>(u)) - (64 - 8 * static_cast<int>(sizeof(T))));
      } else {
        // bfind: the position of the most significant non-sign bit, 0xFFFFFFFF when none.
        const int bits = 8 * sizeof(T);
        U<T> w = u;
        if constexpr (std::is_signed_v<T>)
          if (v < 0) w = static_cast<U<T>>(~u);
        if (w == 0) {
          r = 0xFFFFFFFFu;
        } else {
          const int msb = 63 - leading_zeros64(static_cast<std::uint64_t>(w));
          r = (in.mods & kShiftAmt) ? static_cast<std::uint32_t>(bits - 1 - msb) : static_cast<std::uint32_t>(msb);
        }
      }
      d[lane] = r;
    });
  }
};

template <class T>
struct Brev {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) {
    const Src a = source(s, in, 1);
    std::uint64_t* d = dest(s, in, 0);
    each_lane(mask, [&](int lane) {
      U<T> v = static_cast<U<T>>(get<T>(a[lane])), r = 0;
      for (unsigned i = 0; i < 8 * sizeof(T); ++i) r = static_cast<U<T>>(r << 1 | ((v >> i) & 1));
      d[lane] = put<T>(static_cast<T>(r));
    });
  }
};

// bfe d, a, pos, len (PTX ISA pseudocode: bits past the msb and beyond len take the sign bit).
template <class T>
struct Bfe {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) {
    const Src a = source(s, in, 1), b = source(s, in, 2), c = source(s, in, 3);
    std::uint64_t* d = dest(s, in, 0);
    constexpr unsigned msb = 8 * sizeof(T) - 1;
    each_lane(mask, [&](int lane) {
      const U<T> x = static_cast<U<T>>(get<T>(a[lane]));
      const unsigned pos = static_cast<unsigned>(b[lane] & 0xFF), len = static_cast<unsigned>(c[lane] & 0xFF);
      unsigned sbit = 0;
      if (std::is_signed_v<T> && len != 0) sbit = (x >> std::min(pos + len - 1, msb)) & 1;
      U<T> r = 0;
      for (unsigned i = 0; i <= msb; ++i) {
        const unsigned bit = (i < len && pos + i <= msb) ? static_cast<unsigned>((x >> (pos + i)) & 1) : sbit;
        r = static_cast<U<T>>(r | static_cast<U<T>>(static_cast<U<T>>(bit) << i));
      }
      d[lane] = put<T>(static_cast<T>(r));
    });
  }
};

// bfi d, a, b, pos, len: a's low len bits inserted into b at pos.
template <class T>
struct Bfi {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) {
    const Src a = source(s, in, 1), b = source(s, in, 2), c = source(s, in, 3), e = source(s, in, 4);
    std::uint64_t* d = dest(s, in, 0);
    constexpr unsigned msb = 8 * sizeof(T) - 1;
    each_lane(mask, [&](int lane) {
      const U<T> x = static_cast<U<T>>(get<T>(a[lane]));
      U<T> f = static_cast<U<T>>(get<T>(b[lane]));
      const unsigned pos = static_cast<unsigned>(c[lane] & 0xFF), len = static_cast<unsigned>(e[lane] & 0xFF);
      for (unsigned i = 0; i < len && pos + i <= msb; ++i) {
        const U<T> bit = static_cast<U<T>>(U<T>{1} << (pos + i));
        f = ((x >> i) & 1) ? static_cast<U<T>>(f | bit) : static_cast<U<T>>(f & static_cast<U<T>>(~bit));
      }
      d[lane] = put<T>(static_cast<T>(f));
    });
  }
};

template <class T> using AddH = Add<T>;

// dp4a.atype.btype d, a, b, c: c plus the four byte products; dp2a.{lo,hi}: the two 16-bit
// elements of a times bytes 0-1 (lo) or 2-3 (hi) of b. Signedness per operand type.
void dot_product(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2), c = source(s, in, 3);
  std::uint64_t* d = dest(s, in, 0);
  const bool a_signed = in.type == Type::s32, b_signed = in.type2 == Type::s32;
  const bool two_way = in.aux != 0;
  const int b_first = in.aux == 2 ? 2 : 0;
  each_lane(mask, [&](int lane) {
    const auto x = static_cast<std::uint32_t>(a[lane]), y = static_cast<std::uint32_t>(b[lane]);
    auto byte = [&](std::uint32_t v, int i, bool sign) {
      const std::uint32_t raw = (v >> (8 * i)) & 0xFF;
      return sign ? static_cast<std::int64_t>(static_cast<std::int8_t>(raw)) : static_cast<std::int64_t>(raw);
    };
    auto half = [&](std::uint32_t v, int i, bool sign) {
      const std::uint32_t raw = (v >> (16 * i)) & 0xFFFF;
      return sign ? static_cast<std::int64_t>(static_cast<std::int16_t>(raw)) : static_cast<std::int64_t>(raw);
    };
    std::int64_t sum = static_cast<std::int64_t>(static_cast<std::uint32_t>(c[lane]));
    if (two_way)
      for (int i = 0; i < 2; ++i) sum += half(x, i, a_signed) * byte(y, b_first + i, b_signed);
    else
      for (int i = 0; i < 4; ++i) sum += byte(x, i, a_signed) * byte(y, i, b_signed);
    d[lane] = static_cast<std::uint32_t>(sum);
  });
}

bool expect_ops(DecodeInput& input, Instr& instr, int count) {
  if (instr.nops == count) return true;
  mark_unsupported(input, instr, "expected " + std::to_string(count) + " operands");
  return false;
}

// min / max .s16x2 .u16x2: each 16-bit half on its own (aux: bit 0 max, bit 1 signed); .relu
// clamps a negative signed result to 0.
void packed_min_max(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2);
  std::uint64_t* d = dest(s, in, 0);
  const bool max = in.aux & 1, is_signed = in.aux & 2, relu = in.mods & kRelu;
  each_lane(mask, [&](int lane) {
    std::uint32_t out = 0;
    for (int half = 0; half < 2; ++half) {
      const auto x = static_cast<std::uint16_t>(a[lane] >> (16 * half));
      const auto y = static_cast<std::uint16_t>(b[lane] >> (16 * half));
      std::int32_t r;
      if (is_signed) {
        const auto sx = static_cast<std::int16_t>(x), sy = static_cast<std::int16_t>(y);
        r = max ? std::max(sx, sy) : std::min(sx, sy);
        if (relu && r < 0) r = 0;
      } else {
        r = max ? std::max(x, y) : std::min(x, y);
      }
      out |= static_cast<std::uint32_t>(static_cast<std::uint16_t>(r)) << (16 * half);
    }
    d[lane] = out;
  });
}

}  // namespace

bool decode_integer(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const std::string& base = q.base();
  static const char* const kOps[] = {"add", "sub", "addc", "subc", "mul", "mad", "madc", "mul24",
                                     "mad24", "sad", "div", "rem", "abs", "neg", "min", "max",
                                     "popc", "clz", "bfind", "brev", "bfe", "bfi"};
  bool known = false;
  for (const char* op : kOps) known = known || base == op;
  if (base == "dp4a" || base == "dp2a") {
    const int half = base == "dp2a" ? q.take_one({"lo", "hi"}) : -1;
    const std::vector<Type> types = q.take_types();
    const bool ok = types.size() == 2 && instr.nops == 4 && (base == "dp4a" || half >= 0) &&
                    (types[0] == Type::u32 || types[0] == Type::s32) && (types[1] == Type::u32 || types[1] == Type::s32);
    if (!ok) {
      mark_unsupported(input, instr, "form");
      return true;
    }
    instr.type = types[0];
    instr.type2 = types[1];
    instr.aux = base == "dp4a" ? 0 : 1 + half;
    instr.handler = dot_product;
    return true;
  }
  if (!known) return false;
  const bool signed_x2 = (base == "min" || base == "max") && q.take("s16x2");
  if (signed_x2 || ((base == "min" || base == "max") && q.take("u16x2"))) {
    const bool is_signed = signed_x2;
    if (q.take("relu")) instr.mods |= kRelu;
    if (!expect_ops(input, instr, 3)) return true;
    if ((instr.mods & kRelu) && !is_signed) {
      mark_unsupported(input, instr, "form");
      return true;
    }
    instr.aux = (base == "max" ? 1 : 0) | (is_signed ? 2 : 0);
    instr.handler = packed_min_max;
    return true;
  }
  // Float and half forms of add/sub/mul/mad/div/abs/neg/min/max belong to the float families.
  std::vector<Type> types = q.take_types();
  if (types.size() != 1) {
    mark_unsupported(input, instr, "type");
    return true;
  }
  const Type type = types[0];
  if (is_float(type)) {
    // Put the type back for the float decoders (they take it again).
    input.q = Qualifiers(instr.text);
    return false;
  }
  instr.type = type;
  if (q.take("sat")) instr.mods |= kSat;
  if (q.take("cc")) instr.mods |= kCarryOut;
  if (q.take("lo")) instr.mods |= kLo;
  if (q.take("hi")) instr.mods |= kHi;
  if (q.take("wide")) instr.mods |= kWide;
  if (q.take("relu")) instr.mods |= kRelu;
  if (q.take("shiftamt")) instr.mods |= kShiftAmt;
  if (base == "addc" || base == "subc" || base == "madc") instr.mods |= kCarryIn;
  Handler handler = nullptr;
  int operands = 3;
  if (base == "add" || base == "addc" || base == "sub" || base == "subc") {
    instr.aux = base[0] == 's' ? 1 : 0;
    handler = integer_handler<AddH>(type);
  } else if (base == "mul" || base == "mad" || base == "madc") {
    instr.aux = base == "mul" ? 0 : 1;
    operands = base == "mul" ? 3 : 4;
    if (instr.mods & kWide) {
      switch (type) {
        case Type::u16: handler = MulAdd<std::uint16_t>::run; break;
        case Type::s16: handler = MulAdd<std::int16_t>::run; break;
        case Type::u32: handler = MulAdd<std::uint32_t>::run; break;
        case Type::s32: handler = MulAdd<std::int32_t>::run; break;
        default: break;
      }
    } else {
      handler = integer_handler<MulAdd>(type);
    }
  } else if (base == "mul24" || base == "mad24") {
    instr.aux = base == "mul24" ? 0 : 1;
    operands = base == "mul24" ? 3 : 4;
    handler = type == Type::s32 ? Mul24<std::int32_t>::run : type == Type::u32 ? Mul24<std::uint32_t>::run : nullptr;
  } else if (base == "sad") {
    operands = 4;
    handler = integer_handler<Sad>(type);
  } else if (base == "div") {
    handler = integer_handler<Div>(type);
  } else if (base == "rem") {
    handler = integer_handler<Rem>(type);
  } else if (base == "min") {
    handler = integer_handler<Min>(type);
  } else if (base == "max") {
    handler = integer_handler<Max>(type);
  } else if (base == "abs" || base == "neg") {
    operands = 2;
    handler = base == "abs" ? integer_handler<Abs>(type) : integer_handler<Neg>(type);
  } else if (base == "popc" || base == "clz" || base == "bfind") {
    operands = 2;
    instr.aux = base == "popc" ? 0 : base == "clz" ? 1 : 2;
    handler = integer_handler<BitCount>(type);
  } else if (base == "brev") {
    operands = 2;
    handler = integer_handler<Brev>(type);
  } else if (base == "bfe") {
    operands = 4;
    handler = integer_handler<Bfe>(type);
  } else if (base == "bfi") {
    operands = 5;
    handler = integer_handler<Bfi>(type);
  }
  if (!handler) {
    mark_unsupported(input, instr, "type ." + std::string(type_name(type)));
    return true;
  }
  if (!expect_ops(input, instr, operands)) return true;
  instr.handler = handler;
  return true;
}

}  // namespace pkb::ptx
