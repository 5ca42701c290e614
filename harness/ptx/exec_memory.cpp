// ld, ldu, st (every state space, vector widths, .volatile / .relaxed / .acquire / .release at any
// scope: the simulation is sequentially consistent, so orderings hold by construction), cvta,
// isspacep, prefetch and createpolicy (an L2 eviction policy: instructions with .L2::cache_hint
// take it as a hint only; decode_instruction drops that operand). A strong load (anything but
// .weak) reports what it read, so a spin loop can be parked until someone writes what it reads.
#include <cstring>

#include "harness/ptx/decode.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

std::uint64_t extend(const std::uint8_t* p, Type type) {
  switch (type) {
    case Type::s8: return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int8_t>(*p)));
    case Type::s16: {
      std::int16_t v;
      std::memcpy(&v, p, 2);
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
    }
    case Type::s32: {
      std::int32_t v;
      std::memcpy(&v, p, 4);
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
    }
    default: {
      std::uint64_t v = 0;
      std::memcpy(&v, p, static_cast<std::size_t>(type_bytes(type)));
      return v;
    }
  }
}

// The destination registers of a load (or sources of a store): one, or a vector's.
int element_reg(const ExecState& s, const Operand& op, int e) {
  if (op.kind == Operand::Kind::vec) return s.launch.program->vec_regs[static_cast<std::size_t>(op.reg + e)];
  return op.reg;
}

template <bool Strong>
void load(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Operand& dst = in.ops[0];
  const Operand& addr = in.ops[1];
  const int elem = type_bytes(in.type);
  const std::uint32_t total = static_cast<std::uint32_t>(elem * in.vec);
  std::uint64_t hash = 0;
  each_lane(mask, [&](int lane) {
    const std::uint64_t address = operand_address(s, addr, lane);
    const std::uint8_t* p = translate(s, in.space, address, total, lane, Access::read);
    for (int e = 0; e < in.vec; ++e) {
      const int r = element_reg(s, dst, e);
      const std::uint64_t value = extend(p + e * elem, in.type);
      if (r >= 0) s.regs[static_cast<std::ptrdiff_t>(r) * kWarpLanes + lane] = value;
      if constexpr (Strong) hash = hash * 0x100000001B3ull ^ value;
    }
    if constexpr (Strong) {
      const auto host = reinterpret_cast<std::uint64_t>(p);
      hash = hash * 0x100000001B3ull ^ host;
      for (std::uint64_t word = host & ~3ull; word < host + total; word += 4) s.loaded_words.push_back(word);
    }
  });
  if constexpr (Strong) s.load_hash = hash;
}

// The common loads, without vectors or sign extension: one memcpy per lane.
template <int Bytes>
void load_plain(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Operand& addr = in.ops[1];
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    const std::uint8_t* p = translate(s, in.space, operand_address(s, addr, lane), Bytes, lane, Access::read);
    std::uint64_t value = 0;
    std::memcpy(&value, p, Bytes);
    d[lane] = value;
  });
}

void store(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Operand& addr = in.ops[0];
  const Operand& src = in.ops[1];
  const int elem = type_bytes(in.type);
  const std::uint32_t total = static_cast<std::uint32_t>(elem * in.vec);
  const Src scalar = src.kind == Operand::Kind::vec ? Src{nullptr, 0} : source(s, in, 1);
  race_release(s, in);
  each_lane(mask, [&](int lane) {
    std::uint8_t* p = translate(s, in.space, operand_address(s, addr, lane), total, lane, Access::write);
    for (int e = 0; e < in.vec; ++e) {
      std::uint64_t value;
      if (src.kind == Operand::Kind::vec) {
        const int r = element_reg(s, src, e);
        value = r >= 0 ? s.regs[static_cast<std::ptrdiff_t>(r) * kWarpLanes + lane] : 0;
      } else {
        value = scalar[lane];
      }
      std::memcpy(p + e * elem, &value, static_cast<std::size_t>(elem));
    }
    wrote(s, p, total);
  });
}

// cvta.space: a space address to a generic one; cvta.to.space: the reverse.
void cvta(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1);
  std::uint64_t* d = dest(s, in, 0);
  std::uint64_t tag = 0;
  switch (in.space) {
    case Space::shared: case Space::shared_cluster: tag = kSharedTag; break;
    case Space::local: tag = kLocalTag; break;
    case Space::param: tag = kParamTag; break;
    default: break;
  }
  const bool to_space = in.aux == 1;
  const bool narrow = in.type == Type::u32;
  each_lane(mask, [&](int lane) {
    std::uint64_t v = a[lane];
    if (to_space) v = tag ? v & ~kTagMask : v;
    else v = tag ? (v | tag) : v;
    d[lane] = narrow ? static_cast<std::uint32_t>(v) : v;
  });
}

void isspacep(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    const std::uint64_t tag = a[lane] & kTagMask;
    bool r = false;
    switch (in.space) {
      case Space::global: r = tag == 0 && s.machine.memory().find(a[lane], 1) != nullptr; break;
      case Space::shared: case Space::shared_cluster: r = tag == kSharedTag; break;
      case Space::local: r = tag == kLocalTag; break;
      case Space::param: r = tag == kParamTag; break;
      case Space::const_: r = tag == 0 && s.machine.memory().find(a[lane], 1) != nullptr; break;
      default: break;
    }
    d[lane] = r ? 1 : 0;
  });
}

void nothing(ExecState&, const Instr&, std::uint32_t) {}

// createpolicy: the policy is opaque and only ever a hint, so any stable value will do: a tag, the
// form and priorities (aux), and the fraction's f32 bits (1.0 when absent). .cvt passes the CUDA
// access property through.
constexpr std::int32_t kPolicyCvt = 2;
void create_policy(ExecState& s, const Instr& in, std::uint32_t mask) {
  std::uint64_t* d = dest(s, in, 0);
  const Src from = source(s, in, in.nops > 1 ? 1 : 0);
  const bool fraction = in.nops == 2;
  const std::uint64_t base = 0x1000000000000000ull | static_cast<std::uint64_t>(in.aux) << 32;
  each_lane(mask, [&](int lane) {
    if ((in.aux & 0xF) == kPolicyCvt)
      d[lane] = from[lane];
    else
      d[lane] = base | (fraction ? from[lane] & 0xFFFFFFFFull : 0x3F800000ull);
  });
}

bool decode_create_policy(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const int form = q.take_one({"range", "fractional", "cvt"});
  if (form == 0) q.take("global");
  if (form == kPolicyCvt) q.take("L2");
  const int primary =
      q.take_one({"L2::evict_last", "L2::evict_normal", "L2::evict_first", "L2::evict_unchanged"});
  const int secondary = q.take_one({"L2::evict_first", "L2::evict_unchanged"});
  q.take_types();
  const bool operands = instr.nops >= 1 && instr.ops[0].kind == Operand::Kind::reg &&
                        (form == 0   ? instr.nops == 4 && instr.ops[1].kind == Operand::Kind::addr
                         : form == 1 ? instr.nops <= 2
                                     : instr.nops == 2);
  if (form < 0 || (form != kPolicyCvt && primary < 0) || !operands) {
    mark_unsupported(input, instr, "form");
    return true;
  }
  instr.aux = form | (primary + 1) << 4 | (secondary + 1) << 8;
  if (form == 1) narrow_f32_immediates(instr);
  instr.handler = create_policy;
  return true;
}

Space take_space(Qualifiers& q) {
  static constexpr std::pair<std::string_view, Space> kSpaces[] = {
      {"global", Space::global},       {"shared", Space::shared},
      {"shared::cta", Space::shared},  {"shared::cluster", Space::shared_cluster},
      {"local", Space::local},         {"param", Space::param},
      {"param::entry", Space::param},  {"param::func", Space::param},
      {"const", Space::const_}};
  for (const auto& [name, space] : kSpaces)
    if (q.take(name)) return space;
  return Space::generic;
}

Sem take_sem(Qualifiers& q, Scope& scope) {
  Sem sem = Sem::weak;
  const int which = q.take_one({"weak", "volatile", "relaxed", "acquire", "release", "mmio"});
  switch (which) {
    case 1: sem = Sem::volatile_; break;
    case 2: sem = Sem::relaxed; break;
    case 3: sem = Sem::acquire; break;
    case 4: sem = Sem::release; break;
    case 5: sem = Sem::mmio; break;
    default: break;
  }
  const int s = q.take_one({"cta", "cluster", "gpu", "sys"});
  scope = s < 0 ? Scope::none : static_cast<Scope>(s + 1);
  return sem;
}

}  // namespace

Space decode_space(Qualifiers& q) { return take_space(q); }
Sem decode_sem(Qualifiers& q, Scope& scope) { return take_sem(q, scope); }

bool decode_memory(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const std::string& base = q.base();
  if (base == "prefetch" || base == "prefetchu" || base == "discard" || base == "applypriority") {
    q = Qualifiers("");
    instr.handler = nothing;
    return true;
  }
  if (base == "createpolicy") return decode_create_policy(input, instr);
  if (base == "cvta" || base == "isspacep") {
    instr.aux = q.take("to") ? 1 : 0;
    instr.space = take_space(q);
    const std::vector<Type> types = q.take_types();
    instr.type = types.empty() ? Type::u64 : types[0];
    instr.handler = base == "cvta" ? cvta : isspacep;
    return true;
  }
  if (base != "ld" && base != "ldu" && base != "st") return false;
  instr.sem = take_sem(q, instr.scope);
  instr.space = take_space(q);
  if (q.take("nc")) instr.mods |= kNc;
  q.drop_hints();
  const int vector = q.take_one({"v2", "v4", "v8"});
  instr.vec = static_cast<std::uint8_t>(vector < 0 ? 1 : 2 << vector);
  const std::vector<Type> types = q.take_types();
  if (types.size() != 1 || types[0] == Type::b128) {
    mark_unsupported(input, instr, "type");
    return true;
  }
  instr.type = types[0];
  // A .param access to a function's parameter (not a kernel's) reads the thread's frame.
  const Operand& addr = instr.ops[base == "st" ? 0 : 1];
  if (instr.nops < 2 || addr.kind != Operand::Kind::addr) {
    mark_unsupported(input, instr, "operands");
    return true;
  }
  if (instr.space == Space::param && addr.symbol >= 0 &&
      input.program.symbols[static_cast<std::size_t>(addr.symbol)].kind == SymbolKind::frame)
    instr.space = Space::local;
  if (base == "st") {
    instr.handler = store;
    return true;
  }
  const bool strong = instr.sem != Sem::weak && !(instr.mods & kNc);
  if (strong) {
    instr.flow = Flow::spin_load;
    instr.handler = load<true>;
    return true;
  }
  const bool plain = instr.vec == 1 && !is_signed(instr.type) && instr.ops[0].kind == Operand::Kind::reg;
  if (plain && type_bytes(instr.type) == 4) instr.handler = load_plain<4>;
  else if (plain && type_bytes(instr.type) == 8) instr.handler = load_plain<8>;
  else if (plain && type_bytes(instr.type) == 2) instr.handler = load_plain<2>;
  else instr.handler = load<false>;
  return true;
}

}  // namespace pkb::ptx
