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

// prmt.b32{.mode} d, a, b, c over the bytes of b:a (a is bytes 0-3). The generic form: byte i of
// d is byte c[4i+2:4i], or that byte's sign replicated when c[4i+3] is set. The modes use c[1:0]
// as in the PTX ISA's table: f4e/b4e extract four consecutive bytes forward or backward, rc8
// replicates a byte, ecl/ecr clamp at the left or right edge, rc16 replicates a half-word.
enum PermuteMode : std::int32_t { kGeneric, kF4e, kB4e, kRc8, kEcl, kEcr, kRc16 };

int permute_byte(std::int32_t mode, std::uint32_t ctl, int i) {
  switch (mode) {
    case kF4e: return static_cast<int>((ctl + static_cast<std::uint32_t>(i)) & 7);
    case kB4e: return static_cast<int>((ctl - static_cast<std::uint32_t>(i)) & 7);
    case kRc8: return static_cast<int>(ctl);
    case kEcl: return i > static_cast<int>(ctl) ? i : static_cast<int>(ctl);
    case kEcr: return i < static_cast<int>(ctl) ? i : static_cast<int>(ctl);
    default: return static_cast<int>(2 * (ctl & 1) + static_cast<std::uint32_t>(i & 1));  // rc16
  }
}

void permute(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2), c = source(s, in, 3);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    const std::uint64_t bytes = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(b[lane])) << 32) |
                                static_cast<std::uint32_t>(a[lane]);
    const auto selector = static_cast<std::uint32_t>(c[lane]);
    std::uint32_t r = 0;
    for (int i = 0; i < 4; ++i) {
      std::uint32_t byte;
      if (in.aux == kGeneric) {
        const std::uint32_t sel = (selector >> (4 * i)) & 0xF;
        byte = static_cast<std::uint32_t>((bytes >> (8 * (sel & 7))) & 0xFF);
        if (sel & 8) byte = (byte & 0x80) ? 0xFF : 0;
      } else {
        byte = static_cast<std::uint32_t>((bytes >> (8 * permute_byte(in.aux, selector & 3, i))) & 0xFF);
      }
      r |= byte << (8 * i);
    }
    d[lane] = r;
  });
}

// bmsk.{clamp,wrap}.b32 d, a, b: a mask of b bits from bit a (the PTX ISA's pseudocode).
void bit_mask(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2);
  std::uint64_t* d = dest(s, in, 0);
  const bool clamp = in.mods & kClamp;
  each_lane(mask, [&](int lane) {
    const auto pos = static_cast<std::uint32_t>(a[lane]), width = static_cast<std::uint32_t>(b[lane]);
    const std::uint32_t a1 = pos & 0x1F, b1 = width & 0x1F, sum = a1 + b1;
    std::uint32_t mask0 = ~0u << a1;
    std::uint32_t mask1 = sum >= 32 ? 0u : ~0u << sum;
    bool overflow = sum >= 32;
    if (clamp) {
      if (pos >= 32) {
        overflow = true;
        mask0 = 0;
      }
      if (width >= 32) overflow = true;
    }
    if (overflow) mask1 = 0;
    else if (b1 == 0) mask1 = ~0u;
    d[lane] = mask0 & ~mask1;
  });
}

// szext.{clamp,wrap}.{s32,u32} d, a, b: a's low b bits, sign- or zero-extended.
void sign_zero_extend(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2);
  std::uint64_t* d = dest(s, in, 0);
  const bool clamp = in.mods & kClamp, is_signed_type = in.type == Type::s32;
  each_lane(mask, [&](int lane) {
    const auto x = static_cast<std::uint32_t>(a[lane]), n = static_cast<std::uint32_t>(b[lane]);
    const std::uint32_t b1 = n & 0x1F;
    const bool too_large = n >= 32 && clamp;
    const std::uint32_t high = too_large ? 0u : ~0u << b1;
    const bool sign = !(b1 == 0 || too_large || !is_signed_type) && ((x >> ((b1 - 1) & 0x1F)) & 1);
    d[lane] = (x & ~high) | (sign ? high : 0u);
  });
}

}  // namespace

bool decode_logic(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const std::string& base = q.base();
  const bool bitwise = base == "and" || base == "or" || base == "xor" || base == "not" || base == "cnot";
  if (base == "bmsk" || base == "szext") {
    const int mode = q.take_one({"clamp", "wrap"});
    const std::vector<Type> types = q.take_types();
    instr.type = types.size() == 1 ? types[0] : Type::none;
    const bool ok = mode >= 0 && instr.nops == 3 &&
                    (base == "bmsk" ? instr.type == Type::b32 : (instr.type == Type::s32 || instr.type == Type::u32));
    if (!ok) {
      mark_unsupported(input, instr, "form");
      return true;
    }
    if (mode == 0) instr.mods |= kClamp;
    instr.handler = base == "bmsk" ? bit_mask : sign_zero_extend;
    return true;
  }
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
  const int mode = q.take_one({"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"});
  instr.aux = mode < 0 ? kGeneric : mode + 1;
  if (type != Type::b32 || instr.nops != 4) {
    mark_unsupported(input, instr, "form");
    return true;
  }
  instr.handler = permute;
  return true;
}

}  // namespace pkb::ptx
