// Comparisons and selection: setp (p = t BoolOp c, q = !t BoolOp c), set (1.0f or all ones),
// selp (d = c ? a : b) and slct (d = c >= 0 ? a : b), for integer, bit, f32, f64 and f16/bf16
// types (x2: p from the low halves, q from the high halves). Ordered float compares are false when
// either side is NaN; the unordered forms (equ, ltu, ...) are true.
#include <cmath>

#include "harness/ptx/decode.h"
#include "harness/ptx/float_formats.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

template <class T>
bool compare(Cmp cmp, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool unordered = std::isnan(a) || std::isnan(b);
    switch (cmp) {
      case Cmp::eq: return !unordered && a == b;
      case Cmp::ne: return !unordered && a != b;
      case Cmp::lt: return !unordered && a < b;
      case Cmp::le: return !unordered && a <= b;
      case Cmp::gt: return !unordered && a > b;
      case Cmp::ge: return !unordered && a >= b;
      case Cmp::equ: return unordered || a == b;
      case Cmp::neu: return unordered || a != b;
      case Cmp::ltu: return unordered || a < b;
      case Cmp::leu: return unordered || a <= b;
      case Cmp::gtu: return unordered || a > b;
      case Cmp::geu: return unordered || a >= b;
      case Cmp::num: return !unordered;
      case Cmp::nan: return unordered;
      default: return false;
    }
  } else {
    using Us = std::make_unsigned_t<T>;
    const Us ua = static_cast<Us>(a), ub = static_cast<Us>(b);
    switch (cmp) {
      case Cmp::eq: return a == b;
      case Cmp::ne: return a != b;
      case Cmp::lt: return a < b;
      case Cmp::le: return a <= b;
      case Cmp::gt: return a > b;
      case Cmp::ge: return a >= b;
      case Cmp::lo: return ua < ub;
      case Cmp::ls: return ua <= ub;
      case Cmp::hi: return ua > ub;
      case Cmp::hs: return ua >= ub;
      default: return false;
    }
  }
}

bool combine(BoolOp op, bool t, bool c) {
  switch (op) {
    case BoolOp::and_: return t && c;
    case BoolOp::or_: return t || c;
    case BoolOp::xor_: return t != c;
    default: return t;
  }
}

// The lanes' compare results (t per lane), then p, q and set's d from them.
template <class T>
void setp(ExecState& s, const Instr& in, std::uint32_t mask) {
  const bool pair = in.mods & kPairDst;
  const int a_at = pair ? 2 : 1;
  const Src a = source(s, in, a_at), b = source(s, in, a_at + 1);
  const bool has_c = in.bool_op != BoolOp::none;
  const Src c = has_c ? source(s, in, a_at + 2) : a;
  const bool negate_c = has_c && in.ops[a_at + 2].negate;
  std::uint64_t* p = in.ops[0].kind == Operand::Kind::reg ? dest(s, in, 0) : nullptr;
  std::uint64_t* q = pair && in.ops[1].kind == Operand::Kind::reg ? dest(s, in, 1) : nullptr;
  const bool ftz = in.mods & kFtz;
  each_lane(mask, [&](int lane) {
    T x = get<T>(a[lane]), y = get<T>(b[lane]);
    if constexpr (std::is_same_v<T, float>)
      if (ftz) {
        x = flush_f32(x);
        y = flush_f32(y);
      }
    const bool t = compare<T>(in.cmp, x, y);
    const bool cv = has_c ? ((c[lane] != 0) != negate_c) : false;
    if (p) p[lane] = combine(in.bool_op, t, cv) ? 1 : 0;
    if (q) q[lane] = combine(in.bool_op, !t, cv) ? 1 : 0;
  });
}

void setp_half(ExecState& s, const Instr& in, std::uint32_t mask) {
  const bool pair = in.mods & kPairDst;
  const int a_at = pair ? 2 : 1;
  const Src a = source(s, in, a_at), b = source(s, in, a_at + 1);
  const bool has_c = in.bool_op != BoolOp::none;
  const Src c = has_c ? source(s, in, a_at + 2) : a;
  const bool negate_c = has_c && in.ops[a_at + 2].negate;
  std::uint64_t* p = in.ops[0].kind == Operand::Kind::reg ? dest(s, in, 0) : nullptr;
  std::uint64_t* q = pair && in.ops[1].kind == Operand::Kind::reg ? dest(s, in, 1) : nullptr;
  const Type element = in.type == Type::bf16 || in.type == Type::bf16x2 ? Type::bf16 : Type::f16;
  const bool x2 = in.type == Type::f16x2 || in.type == Type::bf16x2;
  each_lane(mask, [&](int lane) {
    const auto x = static_cast<std::uint32_t>(a[lane]), y = static_cast<std::uint32_t>(b[lane]);
    const bool cv = has_c ? ((c[lane] != 0) != negate_c) : false;
    const bool t0 = compare<double>(in.cmp, half_to_double(element, static_cast<std::uint16_t>(x)),
                                    half_to_double(element, static_cast<std::uint16_t>(y)));
    if (!x2) {
      if (p) p[lane] = combine(in.bool_op, t0, cv) ? 1 : 0;
      if (q) q[lane] = combine(in.bool_op, !t0, cv) ? 1 : 0;
      return;
    }
    const bool t1 = compare<double>(in.cmp, half_to_double(element, static_cast<std::uint16_t>(x >> 16)),
                                    half_to_double(element, static_cast<std::uint16_t>(y >> 16)));
    if (p) p[lane] = combine(in.bool_op, t0, cv) ? 1 : 0;
    if (q) q[lane] = combine(in.bool_op, t1, cv) ? 1 : 0;
  });
}

// set.CmpOp[.BoolOp].dtype.stype d, a, b[, c]
template <class T>
void set(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2);
  const bool has_c = in.bool_op != BoolOp::none;
  const Src c = has_c ? source(s, in, 3) : a;
  const bool negate_c = has_c && in.ops[3].negate;
  std::uint64_t* d = dest(s, in, 0);
  const bool float_result = in.type == Type::f32;
  each_lane(mask, [&](int lane) {
    const bool t = combine(in.bool_op, compare<T>(in.cmp, get<T>(a[lane]), get<T>(b[lane])),
                           has_c && ((c[lane] != 0) != negate_c));
    d[lane] = t ? (float_result ? bits_of(1.0f) : 0xFFFFFFFFull) : 0;
  });
}

void selp(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2), c = source(s, in, 3);
  const bool negate = in.ops[3].negate;
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) { d[lane] = ((c[lane] != 0) != negate) ? a[lane] : b[lane]; });
}

template <class C>
void slct(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2), c = source(s, in, 3);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    C test = get<C>(c[lane]);
    if constexpr (std::is_same_v<C, float>)
      if (in.mods & kFtz) test = flush_f32(test);  // a negative subnormal becomes -0, which is >= 0
    d[lane] = test >= 0 ? a[lane] : b[lane];
  });
}

template <template <class> class H>
Handler numeric_handler(Type type) {
  switch (type) {
    case Type::f32: return H<float>::run;
    case Type::f64: return H<double>::run;
    default: return integer_handler<H>(type);
  }
}

template <class T> struct Setp { static void run(ExecState& s, const Instr& in, std::uint32_t m) { setp<T>(s, in, m); } };
template <class T> struct Set { static void run(ExecState& s, const Instr& in, std::uint32_t m) { set<T>(s, in, m); } };

Cmp parse_cmp(Qualifiers& q, bool& ok) {
  static constexpr std::pair<std::string_view, Cmp> kCmps[] = {
      {"eq", Cmp::eq},   {"ne", Cmp::ne},   {"lt", Cmp::lt},   {"le", Cmp::le},   {"gt", Cmp::gt},
      {"ge", Cmp::ge},   {"lo", Cmp::lo},   {"ls", Cmp::ls},   {"hi", Cmp::hi},   {"hs", Cmp::hs},
      {"equ", Cmp::equ}, {"neu", Cmp::neu}, {"ltu", Cmp::ltu}, {"leu", Cmp::leu}, {"gtu", Cmp::gtu},
      {"geu", Cmp::geu}, {"num", Cmp::num}, {"nan", Cmp::nan}};
  for (const auto& [name, cmp] : kCmps)
    if (q.take(name)) {
      ok = true;
      return cmp;
    }
  ok = false;
  return Cmp::eq;
}

}  // namespace

bool decode_compare(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const std::string& base = q.base();
  if (base != "setp" && base != "set" && base != "selp" && base != "slct") return false;
  if (base == "selp") {
    const std::vector<Type> selp_types = q.take_types();
    if (selp_types.size() == 1 && selp_types[0] == Type::f32) narrow_f32_immediates(instr);
    instr.handler = selp;
    if (instr.nops != 4) mark_unsupported(input, instr, "operands");
    return true;
  }
  if (base == "slct") {
    const std::vector<Type> types = q.take_types();
    if (types.size() != 2 || (types[1] != Type::s32 && types[1] != Type::f32) || instr.nops != 4) {
      mark_unsupported(input, instr, "form");
      return true;
    }
    if (q.take("ftz")) instr.mods |= kFtz;
    instr.handler = types[1] == Type::s32 ? slct<std::int32_t> : slct<float>;
    return true;
  }
  bool ok = false;
  instr.cmp = parse_cmp(q, ok);
  const int boolean = q.take_one({"and", "or", "xor"});
  if (boolean >= 0) instr.bool_op = static_cast<BoolOp>(boolean + 1);
  if (q.take("ftz")) instr.mods |= kFtz;
  const std::vector<Type> types = q.take_types();
  if (!ok) {
    mark_unsupported(input, instr, "comparison");
    return true;
  }
  if (base == "setp") {
    if (types.size() != 1) {
      mark_unsupported(input, instr, "type");
      return true;
    }
    instr.type = types[0];
    const Type t = types[0];
    if (t == Type::f32) narrow_f32_immediates(instr);
    if (t == Type::f16 || t == Type::f16x2 || t == Type::bf16 || t == Type::bf16x2) instr.handler = setp_half;
    else instr.handler = numeric_handler<Setp>(t);
    if (!instr.handler) mark_unsupported(input, instr, "type");
    return true;
  }
  if (types.size() != 2) {
    mark_unsupported(input, instr, "types");
    return true;
  }
  instr.type = types[0];
  instr.type2 = types[1];
  instr.handler = numeric_handler<Set>(types[1]);
  if (!instr.handler) mark_unsupported(input, instr, "type");
  return true;
}

}  // namespace pkb::ptx
