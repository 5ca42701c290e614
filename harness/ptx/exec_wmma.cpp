// wmma, the warp-level matrix instructions with opaque fragments, run when the whole warp has
// arrived (.sync.aligned): wmma.load.a / .b / .c, wmma.mma and wmma.store.d for m16n16k16,
// m32n8k16 and m8n32k16 with f16 or bf16 multiplicands (f16 or f32 accumulators) and m16n16k8 with
// tf32 (f32 accumulators); .row / .col layouts, the optional stride (in elements; by default the
// matrix's own leading dimension), global, shared or generic memory, each lane at its own address.
// Products are summed in double and rounded once to the accumulator type, as exec_matrix.cpp's
// mma.sync does. The integer, sub-byte, b1 and f64 forms end the sample as not executed.
//
// The fragment layout. The PTX ISA leaves which lane holds which element unspecified, but
// programs apply elementwise operations to fragments (fine under any mapping) and some index
// them, so pkb uses the mapping sm_80 and sm_90 hardware uses for these shapes, with groupID
// g = lane / 4 and t = lane % 4 as in the PTX ISA's mma fragment tables:
//   m16n16k16  A is mma.m16n8k16's A fragment; B and C/D are two mma.m16n8k16 n-halves side by
//              side (elements 0-3 columns 0-7, elements 4-7 columns 8-15).
//   m16n16k8   the same with mma.m16n8k8's tf32 fragments (A: 4 elements, B: 2 per n-half).
// An f16 A or B fragment has 8 registers (a layout inherited from sm_70) where the hardware needs
// the distinct elements once: the rest repeat them (m16n16k16: elements 8-15 are 0-7 again);
// loads fill every copy, mma reads the first. m32n8k16 and m8n32k16 extend the scheme (pkb's
// choice, not checked on hardware): m32n8k16 stacks two m16 tiles (A and C: the first half of the
// fragment holds rows 0-15, the second rows 16-31; B is one mma B fragment); m8n32k16 takes the
// rows g of four n-quarters (A: row g, columns 2t, 2t+1, 2t+8, 2t+9; B and C/D: four mma
// n-quarters). The layout qualifiers change only how memory is read or written, never the
// fragment, as on the hardware.
#include <cmath>
#include <limits>
#include <string>

#include "harness/ptx/decode.h"
#include "harness/ptx/float_formats.h"
#include "harness/ptx/warp_collective.h"

namespace pkb::ptx {
namespace {

enum WmmaOp : std::int32_t { kLoadA = kWarpWmmaOps, kLoadB, kLoadC, kStoreD, kWmma };

enum class Shape : std::uint8_t { m16n16k16, m32n8k16, m8n32k16, m16n16k8 };

// Which matrix a fragment holds: A (m x k), B (k x n), C or D (m x n).
enum Which : int { kA, kB, kC };

struct Coord {
  int row, col;
};

struct Dims {
  int m, n, k;
};

Dims dims_of(Shape shape) {
  switch (shape) {
    case Shape::m16n16k16: return {16, 16, 16};
    case Shape::m32n8k16: return {32, 8, 16};
    case Shape::m8n32k16: return {8, 32, 16};
    case Shape::m16n16k8: return {16, 16, 8};
  }
  return {0, 0, 0};
}

Coord extent(Shape shape, int which) {
  const Dims d = dims_of(shape);
  if (which == kA) return {d.m, d.k};
  if (which == kB) return {d.k, d.n};
  return {d.m, d.n};
}

// The distinct elements a lane holds: the matrix's elements over the 32 lanes.
int distinct(Shape shape, int which) {
  const Coord e = extent(shape, which);
  return e.row * e.col / 32;
}

int element_bits(Type type) { return type == Type::f16 || type == Type::bf16 ? 16 : 32; }

// The registers of a fragment, as the PTX ISA's wmma fragment table gives them.
int fragment_registers(Shape shape, int which, Type type) {
  if (type == Type::f16 && which != kC) return 8;
  return distinct(shape, which) * element_bits(type) / 32;
}

// Distinct element i of `lane`'s fragment of `which`: its (row, column) in that matrix.
Coord coord(Shape shape, int which, int lane, int i) {
  const int g = lane >> 2, t = lane & 3;
  if (shape == Shape::m16n16k8 && which == kA) return {g + 8 * (i & 1), t + 4 * (i >> 1)};
  if (shape == Shape::m16n16k8 && which == kB) return {t + 4 * (i & 1), g + 8 * (i >> 1)};
  switch (which) {
    case kA:
      if (shape == Shape::m8n32k16) return {g, 2 * t + (i & 1) + 8 * (i >> 1)};
      return {g + 8 * ((i >> 1) & 1) + 16 * (i >> 3), 2 * t + (i & 1) + 8 * ((i >> 2) & 1)};
    case kB: return {2 * t + (i & 1) + 8 * ((i >> 1) & 1), g + 8 * (i >> 2)};
    default:
      if (shape == Shape::m32n8k16)
        return {g + 8 * ((i >> 1) & 1) + 16 * (i >> 2), 2 * t + (i & 1)};
      if (shape == Shape::m8n32k16) return {g, 2 * t + (i & 1) + 8 * (i >> 1)};
      return {g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)};
  }
}

double value_of(Type type, std::uint64_t bits) {
  switch (type) {
    case Type::f16: return f16_to_double(static_cast<std::uint16_t>(bits));
    case Type::bf16: return bf16_to_double(static_cast<std::uint16_t>(bits));
    // Tensor cores read the 19 bits of a tf32; the low 13 bits of the f32 are ignored.
    case Type::tf32: return as_f32(bits & 0xFFFFE000u);
    default: return as_f32(bits);
  }
}

// Element i of the fragment in vector operand k of `lane`.
std::uint64_t fragment_element(Lanes& lanes, int lane, int k, int i, Type type) {
  const int bits = element_bits(type), per_register = 32 / bits;
  const std::uint64_t word = lanes.read_element(lane, k, i / per_register);
  return (word >> (bits * (i % per_register))) & ((1ull << bits) - 1);
}

int which_of(const Instr& in) { return in.aux == kLoadA ? kA : in.aux == kLoadB ? kB : kC; }

// The host bytes of element (row, col) of the matrix at `lane`'s address in `in`, for load or
// store: row-major rows (column-major columns) lie `stride` elements apart.
std::uint8_t* element_at(Lanes& lanes, const Instr& in, int lane, Coord at, int which, bool load) {
  const int address_operand = load ? 1 : 0;
  const Coord e = extent(static_cast<Shape>(in.shape), which);
  const bool col_major = in.mods & kTrans;
  const std::uint64_t stride = in.nops == 3 ? static_cast<std::uint32_t>(lanes.read(lane, 2))
                                            : static_cast<std::uint64_t>(col_major ? e.row : e.col);
  const std::uint64_t index =
      col_major ? static_cast<std::uint64_t>(at.col) * stride + static_cast<std::uint64_t>(at.row)
                : static_cast<std::uint64_t>(at.row) * stride + static_cast<std::uint64_t>(at.col);
  const auto bytes = static_cast<std::uint32_t>(element_bits(in.type) / 8);
  return translate(lanes.s, in.space, lanes.address(lane, address_operand) + index * bytes, bytes,
                   lane, load ? Access::read : Access::write);
}

void load_fragment(Lanes& lanes, int lane) {
  const Instr& in = *lanes.instr[lane];
  const auto shape = static_cast<Shape>(in.shape);
  const int which = which_of(in), bits = element_bits(in.type), per_register = 32 / bits;
  const int unique = distinct(shape, which), registers = fragment_registers(shape, which, in.type);
  std::uint64_t words[8] = {};
  for (int i = 0; i < registers * per_register; ++i) {
    const std::uint8_t* at =
        element_at(lanes, in, lane, coord(shape, which, lane, i % unique), which, true);
    const std::uint64_t element = bits == 16 ? *reinterpret_cast<const std::uint16_t*>(at)
                                             : *reinterpret_cast<const std::uint32_t*>(at);
    words[i / per_register] |= element << (bits * (i % per_register));
  }
  for (int r = 0; r < registers; ++r) lanes.write_element(lane, 0, r, words[r]);
}

void store_fragment(Lanes& lanes, int lane) {
  const Instr& in = *lanes.instr[lane];
  const auto shape = static_cast<Shape>(in.shape);
  const int bits = element_bits(in.type);
  for (int i = 0; i < distinct(shape, kC); ++i) {
    std::uint8_t* at = element_at(lanes, in, lane, coord(shape, kC, lane, i), kC, false);
    const std::uint64_t element = fragment_element(lanes, lane, 1, i, in.type);
    if (bits == 16)
      *reinterpret_cast<std::uint16_t*>(at) = static_cast<std::uint16_t>(element);
    else
      *reinterpret_cast<std::uint32_t*>(at) = static_cast<std::uint32_t>(element);
    wrote(lanes.s, at, static_cast<std::uint32_t>(bits / 8));
  }
}

void mma(Lanes& lanes) {
  const Instr& in = *lanes.instr[first_lane(lanes.members)];
  const auto shape = static_cast<Shape>(in.shape);
  const Dims d = dims_of(shape);
  const Type dtype = in.type, atype = in.type2, ctype = in.type3;
  double a[32][16] = {}, b[16][32] = {}, c[32][32] = {};
  each_lane(lanes.members, [&](int lane) {
    for (int i = 0; i < distinct(shape, kA); ++i) {
      const Coord at = coord(shape, kA, lane, i);
      a[at.row][at.col] = value_of(atype, fragment_element(lanes, lane, 1, i, atype));
    }
    for (int i = 0; i < distinct(shape, kB); ++i) {
      const Coord at = coord(shape, kB, lane, i);
      b[at.row][at.col] = value_of(atype, fragment_element(lanes, lane, 2, i, atype));
    }
    for (int i = 0; i < distinct(shape, kC); ++i) {
      const Coord at = coord(shape, kC, lane, i);
      c[at.row][at.col] = value_of(ctype, fragment_element(lanes, lane, 3, i, ctype));
    }
  });
  const bool satfinite = in.mods & kSatFinite;
  const int bits = element_bits(dtype), per_register = 32 / bits;
  each_lane(lanes.members, [&](int lane) {
    std::uint64_t words[8] = {};
    for (int i = 0; i < distinct(shape, kC); ++i) {
      const Coord at = coord(shape, kC, lane, i);
      double sum = c[at.row][at.col];
      for (int k = 0; k < d.k; ++k) sum += a[at.row][k] * b[k][at.col];
      std::uint64_t element;
      if (dtype == Type::f16) {
        element = double_to_f16(static_cast<float>(sum), Round::rn, satfinite);
      } else {
        float value = static_cast<float>(sum);
        // .satfinite: an infinity becomes the largest finite value of its sign (NaN stays NaN).
        if (satfinite && std::isinf(value))
          value = std::copysign(std::numeric_limits<float>::max(), value);
        element = bits_of(value);
      }
      words[i / per_register] |= element << (bits * (i % per_register));
    }
    for (int r = 0; r < distinct(shape, kC) / per_register; ++r)
      lanes.write_element(lane, 0, r, words[r]);
  });
}

void nothing(ExecState&, const Instr&, std::uint32_t) {}

constexpr const char* kOnly = "this shape, type or form: pkb simulates f16, bf16 and tf32 wmma";

// The element types a fragment of `which` may have for `shape`.
bool type_fits(Shape shape, int which, Type type) {
  if (shape == Shape::m16n16k8) return which == kC ? type == Type::f32 : type == Type::tf32;
  if (which == kC) return type == Type::f16 || type == Type::f32;
  return type == Type::f16 || type == Type::bf16;
}

// The register count of vector operand k, or 1 for a plain register.
int operand_registers(const Instr& instr, int k) {
  return instr.ops[k].kind == Operand::Kind::vec ? instr.ops[k].count : 1;
}

bool decode_load_store(DecodeInput& input, Instr& instr, bool load) {
  Qualifiers& q = input.q;
  const int which = load ? q.take_one({"a", "b", "c"}) : q.take("d") ? kC : -1;
  const bool aligned = q.take("sync") && q.take("aligned");
  const int layout = q.take_one({"row", "col"});
  const int shape = q.take_one({"m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8"});
  instr.space = decode_space(q);
  const std::vector<Type> types = q.take_types();
  const int data_operand = load ? 0 : 1;
  if (which < 0 || !aligned || layout < 0 || shape < 0 || types.size() != 1 ||
      (instr.nops != 2 && instr.nops != 3) || instr.ops[load ? 1 : 0].kind != Operand::Kind::addr ||
      (instr.space != Space::global && instr.space != Space::shared &&
       instr.space != Space::generic)) {
    mark_unsupported(input, instr, kOnly);
    return true;
  }
  const auto s = static_cast<Shape>(shape);
  if (!type_fits(s, which, types[0])) {
    mark_unsupported(input, instr, kOnly);
    return true;
  }
  if (operand_registers(instr, data_operand) != fragment_registers(s, which, types[0])) {
    mark_unsupported(input, instr,
                     "a fragment of " + std::to_string(operand_registers(instr, data_operand)) +
                         " registers where the shape and type have " +
                         std::to_string(fragment_registers(s, which, types[0])));
    return true;
  }
  instr.shape = static_cast<std::uint8_t>(shape);
  instr.type = types[0];
  if (layout == 1) instr.mods |= kTrans;  // here: column-major
  instr.aux = load ? kLoadA + which : kStoreD;
  instr.flow = Flow::warp_sync;
  instr.handler = nothing;
  return true;
}

bool decode_mma(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const bool aligned = q.take("sync") && q.take("aligned");
  // The layouts must match the loads' and do not change the fragments (see the top).
  const bool layouts = q.take_one({"row", "col"}) >= 0 && q.take_one({"row", "col"}) >= 0;
  const int shape = q.take_one({"m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8"});
  if (q.take("satfinite")) instr.mods |= kSatFinite;
  const std::vector<Type> types = q.take_types();
  // f16 multiplicands: .dtype.ctype; bf16 and tf32: .f32.atype.btype.f32.
  Type dtype = Type::none, atype = Type::none, ctype = Type::none;
  if (types.size() == 2) {
    dtype = types[0], atype = Type::f16, ctype = types[1];
  } else if (types.size() == 4 && types[1] == types[2] &&
             (types[1] == Type::bf16 || types[1] == Type::tf32)) {
    dtype = types[0], atype = types[1], ctype = types[3];
  }
  const auto s = static_cast<Shape>(shape < 0 ? 0 : shape);
  const bool ok = aligned && layouts && shape >= 0 && atype != Type::none && instr.nops == 4 &&
                  type_fits(s, kA, atype) && type_fits(s, kC, ctype) && type_fits(s, kC, dtype) &&
                  (atype == Type::f16 || (dtype == Type::f32 && ctype == Type::f32)) &&
                  operand_registers(instr, 0) == fragment_registers(s, kC, dtype) &&
                  operand_registers(instr, 1) == fragment_registers(s, kA, atype) &&
                  operand_registers(instr, 2) == fragment_registers(s, kB, atype) &&
                  operand_registers(instr, 3) == fragment_registers(s, kC, ctype);
  if (!ok) {
    mark_unsupported(input, instr, kOnly);
    return true;
  }
  instr.shape = static_cast<std::uint8_t>(shape);
  instr.type = dtype;
  instr.type2 = atype;
  instr.type3 = ctype;
  instr.aux = kWmma;
  instr.flow = Flow::warp_sync;
  instr.handler = nothing;
  return true;
}

}  // namespace

void wmma_collective(Lanes& lanes) {
  const Instr& in = *lanes.instr[first_lane(lanes.members)];
  if (in.aux == kWmma) {
    mma(lanes);
    return;
  }
  // Loads and stores: each lane at its own address and stride (the ISA wants them uniform).
  each_lane(lanes.members, [&](int lane) {
    if (lanes.instr[lane]->aux == kStoreD)
      store_fragment(lanes, lane);
    else
      load_fragment(lanes, lane);
  });
}

bool decode_wmma(DecodeInput& input, Instr& instr) {
  if (input.q.base() != "wmma") return false;
  const int op = input.q.take_one({"load", "store", "mma"});
  if (op == 0 || op == 1) return decode_load_store(input, instr, op == 0);
  if (op == 2) return decode_mma(input, instr);
  mark_unsupported(input, instr, "");
  return true;
}

}  // namespace pkb::ptx
