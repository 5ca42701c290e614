// Bitwise and shift instructions: and or xor not cnot lop3 shl shr shf prmt, on bit types and
// predicates. Shifts by at least the width give 0 (shr of a signed type: the sign), as in PTX.
#include "harness/ptx/lane_bits.h"

#include "harness/ptx/decode.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

template <class T>
using U = std::make_unsigned_t<T>;

struct AndOp {
  template <class T> static T apply(T a, T b, const Instr&) { return static_cast<T>(a & b); }
};
struct OrOp {
  template <class T> static T apply(T a, T b, const Instr&) { return static_cast<T>(a | b); }
};
struct XorOp {
  template <class T> static T apply(T a, T b, const Instr&) { return static_cast<T>(a ^ b); }
};
struct NotOp {
  template <class T> static T apply(T a, const Instr&) { return static_cast<T>(~a); }
};
struct CnotOp {
  template <class T> static T apply(T a, const Instr&) { return static_cast<T>(a == 0 ? 1 : 0); }
};

template <class T, class Op>
struct Binary {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) { binary<T, Op>(s, in, mask); }
};
template <class T, class Op>
struct Unary {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) { unary<T, Op>(s, in, mask); }
};
template <class T> using And = Binary<T, AndOp>;
template <class T> using Or = Binary<T, OrOp>;
template <class T> using Xor = Binary<T, XorOp>;
template <class T> using Not = Unary<T, NotOp>;
template <class T> using Cnot = Unary<T, CnotOp>;

// Predicates: sources may be negated ("and.pred p, !q, r" is not PTX, but setp's c may be; keep
// the plain forms), values are 0 or 1.
void pred_logic(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1);
  const Src b = in.nops > 2 ? source(s, in, 2) : a;
  const bool na = in.ops[1].negate, nb = in.nops > 2 && in.ops[2].negate;
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    const bool x = (a[lane] != 0) != na, y = (b[lane] != 0) != nb;
    bool r = false;
    switch (in.aux) {
      case 0: r = x && y; break;
      case 1: r = x || y; break;
      case 2: r = x != y; break;
      case 3: r = !x; break;
      case 4: r = !x; break;  // cnot.pred
    }
    d[lane] = r ? 1 : 0;
  });
}

template <class T>
struct Shift {
  static void run(ExecState& s, const Instr& in, std::uint32_t mask) {
    const Src a = source(s, in, 1), b = source(s, in, 2);
    std::uint64_t* d = dest(s, in, 0);
    constexpr std::uint32_t bits = 8 * sizeof(T);
    const bool left = in.aux == 0;
    each_lane(mask, [&](int lane) {
      const T x = get<T>(a[lane]);
      const auto n = static_cast<std::uint32_t>(b[lane]);
      T r;
      if (left) {
        r = n >= bits ? T{0} : static_cast<T>(static_cast<U<T>>(x) << n);
      } else if constexpr (std::is_signed_v<T>) {
        r = static_cast<T>(x >> (n >= bits ? bits - 1 : n));
      } else {
        r = n >= bits ? T{0} : static_cast<T>(x >> n);
      }
      d[lane] = put<T>(r);
    });
  }
};

// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of b:a by c.
void funnel_shift(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2), c = source(s, in, 3);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    std::uint32_t n = static_cast<std::uint32_t>(c[lane]);
    n = (in.mods & kClamp) ? (n > 32 ? 32 : n) : (n & 31);
    const std::uint64_t both = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(b[lane])) << 32) |
                               static_cast<std::uint32_t>(a[lane]);
    d[lane] = (in.mods & kLeft) ? static_cast<std::uint32_t>((both << n) >> 32)
                                : static_cast<std::uint32_t>(both >> n);
  });
}

// lop3.b32 d, a, b, c, lut: each result bit is lut's bit at index a<<2 | b<<1 | c.
void lop3(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2), c = source(s, in, 3), lut = source(s, in, 4);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    const auto x = static_cast<std::uint32_t>(a[lane]), y = static_cast<std::uint32_t>(b[lane]),
               z = static_cast<std::uint32_t>(c[lane]);
    const auto table = static_cast<std::uint32_t>(lut[lane]);
    std::uint32_t r = 0;
    for (int i = 0; i < 8; ++i)
      if (table >> i & 1) r |= ((i & 4) ? x : ~x) & ((i & 2) ? y : ~y) & ((i & 1) ? z : ~z);
    d[lane] = r;
  });
}

// prmt.b32 d, a, b, c (the default mode): byte i of d is byte c[4i+2:4i] of b:a, or that byte's
// sign replicated when c[4i+3] is set.
void permute(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2), c = source(s, in, 3);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    const std::uint64_t bytes = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(b[lane])) << 32) |
                                static_cast<std::uint32_t>(a[lane]);
    const auto selector = static_cast<std::uint32_t>(c[lane]);
    std::uint32_t r = 0;
    for (int i = 0; i < 4; ++i) {
      const std::uint32_t sel = (selector >> (4 * i)) & 0xF;
      std::uint32_t byte = static_cast<std::uint32_t>((bytes >> (8 * (sel & 7))) & 0xFF);
      if (sel & 8) byte = (byte & 0x80) ? 0xFF : 0;
      r |= byte << (8 * i);
    }
    d[lane] = r;
  });
}

}  // namespace

bool decode_logic(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const std::string& base = q.base();
  const bool bitwise = base == "and" || base == "or" || base == "xor" || base == "not" || base == "cnot";
  if (!bitwise && base != "shl" && base != "shr" && base != "shf" && base != "lop3" && base != "prmt") return false;
  const std::vector<Type> types = q.take_types();
  const Type type = types.size() == 1 ? types[0] : Type::none;
  instr.type = type;
  if (bitwise) {
    const int unary_op = base == "not" || base == "cnot";
    if (instr.nops != (unary_op ? 2 : 3)) {
      mark_unsupported(input, instr, "operands");
      return true;
    }
    if (type == Type::pred) {
      instr.aux = base == "and" ? 0 : base == "or" ? 1 : base == "xor" ? 2 : base == "not" ? 3 : 4;
      instr.handler = pred_logic;
      return true;
    }
    Handler h = nullptr;
    if (base == "and") h = integer_handler<And>(type);
    else if (base == "or") h = integer_handler<Or>(type);
    else if (base == "xor") h = integer_handler<Xor>(type);
    else if (base == "not") h = integer_handler<Not>(type);
    else h = integer_handler<Cnot>(type);
    if (!h) mark_unsupported(input, instr, "type");
    instr.handler = h;
    return true;
  }
  if (base == "shl" || base == "shr") {
    instr.aux = base == "shl" ? 0 : 1;
    instr.handler = integer_handler<Shift>(type);
    if (!instr.handler || instr.nops != 3) mark_unsupported(input, instr, "type");
    return true;
  }
  if (base == "shf") {
    const int direction = q.take_one({"l", "r"});
    const int mode = q.take_one({"wrap", "clamp"});
    if (direction < 0 || mode < 0 || type != Type::b32) {
      mark_unsupported(input, instr, "form");
      return true;
    }
    if (direction == 0) instr.mods |= kLeft;
    if (mode == 1) instr.mods |= kClamp;
    instr.handler = funnel_shift;
    return true;
  }
  if (base == "lop3") {
    instr.handler = type == Type::b32 && instr.nops == 5 ? lop3 : nullptr;
    if (!instr.handler) mark_unsupported(input, instr, "form");
    return true;
  }
  // prmt: only the default (generic) mode.
  if (!q.empty() || type != Type::b32 || instr.nops != 4) {
    mark_unsupported(input, instr, "mode");
    return true;
  }
  instr.handler = permute;
  return true;
}

}  // namespace pkb::ptx
