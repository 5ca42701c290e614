// Warp-level matrix instructions, run when the whole warp has arrived (.sync.aligned):
// mma.sync (m16n8k16 and m16n8k8 with bf16 or f16, m16n8k8 and m16n8k4 with tf32, m16n8k32 and
// m16n8k16 with s8/u8, m16n8k32 with e4m3/e5m2, m8n8k4 with f64; A row-major, B column-major),
// ldmatrix and stmatrix (m8n8, x1/x2/x4, .trans, b16), movmatrix (m8n8.trans.b16); wmma is
// exec_wmma.cpp's. Fragments follow the PTX ISA's "Matrix Fragments for mma" tables (groupID =
// lane / 4, thread-in-group = lane % 4). Products are summed in double and rounded once to the
// accumulator type; tensor cores round differently, within the checker's tolerance. wgmma,
// tcgen05 and the other shapes end the sample as not executed.
#include <cmath>
#include <cstring>

#include "harness/ptx/decode.h"
#include "harness/ptx/float_formats.h"
#include "harness/ptx/warp_collective.h"

namespace pkb::ptx {
namespace {

enum MatrixOp : std::int32_t { kMma = kWarpMatrixOps, kLdmatrix, kStmatrix, kMovmatrix };
static_assert(kMovmatrix < kWarpWmmaOps, "matrix op codes must stay below the wmma ones");

enum class Shape : std::uint8_t { m16n8k16, m16n8k8, m16n8k4, m16n8k32, m8n8k4 };

struct Coord {
  int row, col;
};

// Element i of `lane`'s A fragment: (row m, column k).
Coord a_coord(Shape shape, Type type, int lane, int i) {
  const int g = lane >> 2, t = lane & 3;
  const bool byte = type_bytes(type) == 1;
  switch (shape) {
    case Shape::m16n8k16:
      if (byte) return {g + 8 * (i >> 2), t * 4 + (i & 3)};
      return {g + 8 * ((i >> 1) & 1), t * 2 + (i & 1) + 8 * (i >> 2)};
    case Shape::m16n8k8:
      if (type == Type::tf32) return {g + 8 * (i & 1), t + 4 * (i >> 1)};
      return {g + 8 * (i >> 1), t * 2 + (i & 1)};
    case Shape::m16n8k4: return {g + 8 * i, t};
    case Shape::m16n8k32: return {g + 8 * ((i >> 2) & 1), t * 4 + (i & 3) + 16 * (i >> 3)};
    case Shape::m8n8k4: return {g, t};
  }
  return {0, 0};
}

// Element i of `lane`'s B fragment: (row k, column n).
Coord b_coord(Shape shape, Type type, int lane, int i) {
  const int g = lane >> 2, t = lane & 3;
  const bool byte = type_bytes(type) == 1;
  switch (shape) {
    case Shape::m16n8k16:
      if (byte) return {t * 4 + i, g};
      return {t * 2 + (i & 1) + 8 * (i >> 1), g};
    case Shape::m16n8k8:
      if (type == Type::tf32) return {t + 4 * i, g};
      return {t * 2 + i, g};
    case Shape::m16n8k4: return {t, g};
    case Shape::m16n8k32: return {t * 4 + (i & 3) + 16 * (i >> 2), g};
    case Shape::m8n8k4: return {t, g};
  }
  return {0, 0};
}

// Element i of `lane`'s C or D fragment.
Coord c_coord(Shape shape, int lane, int i) {
  const int g = lane >> 2, t = lane & 3;
  if (shape == Shape::m8n8k4) return {g, t * 2 + i};
  return {g + 8 * (i >> 1), t * 2 + (i & 1)};
}

struct Dims {
  int m, n, k;
};

Dims dims_of(Shape shape) {
  switch (shape) {
    case Shape::m16n8k16: return {16, 8, 16};
    case Shape::m16n8k8: return {16, 8, 8};
    case Shape::m16n8k4: return {16, 8, 4};
    case Shape::m16n8k32: return {16, 8, 32};
    case Shape::m8n8k4: return {8, 8, 4};
  }
  return {0, 0, 0};
}

double decode_element(Type type, std::uint64_t bits) {
  switch (type) {
    case Type::bf16: return bf16_to_double(static_cast<std::uint16_t>(bits));
    case Type::f16: return f16_to_double(static_cast<std::uint16_t>(bits));
    case Type::tf32: {
      // Tensor cores read the 19 bits of a tf32; the low 13 bits of the f32 are ignored.
      const std::uint32_t narrow = static_cast<std::uint32_t>(bits) & 0xFFFFE000u;
      float value;
      std::memcpy(&value, &narrow, 4);
      return value;
    }
    case Type::f32: {
      const auto narrow = static_cast<std::uint32_t>(bits);
      float value;
      std::memcpy(&value, &narrow, 4);
      return value;
    }
    case Type::f64: {
      double value;
      std::memcpy(&value, &bits, 8);
      return value;
    }
    case Type::s8: return static_cast<std::int8_t>(bits);
    case Type::u8: return static_cast<std::uint8_t>(bits);
    case Type::s32: return static_cast<std::int32_t>(bits);
    case Type::e4m3: return e4m3_to_double(static_cast<std::uint8_t>(bits));
    case Type::e5m2: return e5m2_to_double(static_cast<std::uint8_t>(bits));
    default: return 0;
  }
}

// Element i of a fragment held `per_register` to a 32-bit register (64-bit for f64).
std::uint64_t fragment_element(Lanes& lanes, int lane, int k, int i, Type type) {
  const int bits = type == Type::f64 ? 64 : type == Type::f32 || type == Type::tf32 || type == Type::s32 ? 32
                                                                                                         : 8 * type_bytes(type);
  const int per_register = (type == Type::f64 ? 64 : 32) / bits;
  const std::uint64_t word = lanes.read_element(lane, k, i / per_register);
  const std::uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  return (word >> (bits * (i % per_register))) & mask;
}

void mma(Lanes& lanes) {
  const int first = first_lane(lanes.members);
  const Instr& in = *lanes.instr[first];
  const auto shape = static_cast<Shape>(in.shape);
  const Dims d = dims_of(shape);
  const Type dtype = in.type, atype = in.type2, btype = in.type2, ctype = in.type3;
  const int a_elems = d.m * d.k / 32, b_elems = d.k * d.n / 32, c_elems = d.m * d.n / 32;
  double a[16][32] = {}, b[32][8] = {}, c[16][8] = {};
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if (!(lanes.members >> lane & 1)) continue;
    for (int i = 0; i < a_elems; ++i) {
      const Coord at = a_coord(shape, atype, lane, i);
      a[at.row][at.col] = decode_element(atype, fragment_element(lanes, lane, 1, i, atype));
    }
    for (int i = 0; i < b_elems; ++i) {
      const Coord at = b_coord(shape, btype, lane, i);
      b[at.row][at.col] = decode_element(btype, fragment_element(lanes, lane, 2, i, btype));
    }
    for (int i = 0; i < c_elems; ++i) {
      const Coord at = c_coord(shape, lane, i);
      c[at.row][at.col] = decode_element(ctype, fragment_element(lanes, lane, 3, i, ctype));
    }
  }
  const bool integer = dtype == Type::s32;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if (!(lanes.members >> lane & 1)) continue;
    std::uint64_t words[4] = {};
    const int bits = dtype == Type::f16 ? 16 : dtype == Type::f64 ? 64 : 32;
    const int per_register = (dtype == Type::f64 ? 64 : 32) / bits;
    for (int i = 0; i < c_elems; ++i) {
      const Coord at = c_coord(shape, lane, i);
      std::uint64_t element;
      if (integer) {
        std::int64_t sum = static_cast<std::int64_t>(c[at.row][at.col]);
        for (int k = 0; k < d.k; ++k)
          sum += static_cast<std::int64_t>(a[at.row][k]) * static_cast<std::int64_t>(b[k][at.col]);
        if (in.mods & kSatFinite) sum = std::max<std::int64_t>(INT32_MIN, std::min<std::int64_t>(INT32_MAX, sum));
        element = static_cast<std::uint32_t>(static_cast<std::int32_t>(sum));
      } else {
        double sum = c[at.row][at.col];
        for (int k = 0; k < d.k; ++k) sum += a[at.row][k] * b[k][at.col];
        if (dtype == Type::f64) element = bits_of(sum);
        else if (dtype == Type::f16) element = double_to_f16(static_cast<float>(sum), Round::rn);
        else element = bits_of(static_cast<float>(sum));
      }
      words[i / per_register] |= element << (bits * (i % per_register));
    }
    for (int r = 0; r < c_elems / per_register; ++r) lanes.write_element(lane, 0, r, words[r]);
  }
}

// ldmatrix / stmatrix .m8n8: matrix j's row r lives at the address lane 8j + r gives; each lane
// holds, per matrix, the two b16 elements of row lane/4 at columns 2(lane%4), +1 (transposed with
// .trans: rows 2(lane%4), +1 of column lane/4).
void move_matrix(Lanes& lanes, bool load) {
  const int first = first_lane(lanes.members);
  const Instr& in = *lanes.instr[first];
  const int count = in.vec;  // x1 x2 x4
  const bool trans = in.mods & kTrans;
  const int addr_operand = load ? 1 : 0, data_operand = load ? 0 : 1;
  for (int j = 0; j < count; ++j) {
    std::uint8_t* rows[8];
    for (int r = 0; r < 8; ++r) {
      const int source = 8 * j + r;
      if (!(lanes.members >> source & 1))
        lane_fault(first, Fault::Kind::memory, "`" + std::string(in.text) + "` needs lane " + std::to_string(source) +
                                                   "'s row address, but that lane exited");
      rows[r] = translate(lanes.s, in.space, lanes.address(source, addr_operand), 16, source,
                          load ? Access::read : Access::write);
    }
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      if (!(lanes.members >> lane & 1)) continue;
      std::uint16_t* at[2];
      for (int e = 0; e < 2; ++e) {
        const int row = trans ? 2 * (lane & 3) + e : lane >> 2;
        const int col = trans ? lane >> 2 : 2 * (lane & 3) + e;
        at[e] = reinterpret_cast<std::uint16_t*>(rows[row] + 2 * col);
      }
      if (load) {
        lanes.write_element(lane, data_operand, j, static_cast<std::uint32_t>(*at[0]) |
                                                       static_cast<std::uint32_t>(*at[1]) << 16);
      } else {
        const auto word = static_cast<std::uint32_t>(lanes.read_element(lane, data_operand, j));
        *at[0] = static_cast<std::uint16_t>(word);
        *at[1] = static_cast<std::uint16_t>(word >> 16);
      }
    }
    if (!load)
      for (int r = 0; r < 8; ++r) lanes.s.machine.notify_write(reinterpret_cast<std::uint64_t>(rows[r]), 16);
  }
}

// movmatrix.m8n8.trans.b16: lane t holds ldmatrix's fragment of an 8x8 matrix M (row t/4,
// columns 2(t%4) and +1) and gets the same places of its transpose: M[2(t%4)][t/4], M[2(t%4)+1][t/4].
// A lane that exited contributes zeros.
void move_in_registers(Lanes& lanes) {
  std::uint16_t m[8][8] = {};
  each_lane(lanes.members, [&](int lane) {
    const auto word = static_cast<std::uint32_t>(lanes.read(lane, 1));
    m[lane >> 2][2 * (lane & 3)] = static_cast<std::uint16_t>(word);
    m[lane >> 2][2 * (lane & 3) + 1] = static_cast<std::uint16_t>(word >> 16);
  });
  each_lane(lanes.members, [&](int lane) {
    const int row = 2 * (lane & 3), col = lane >> 2;
    lanes.write(lane, 0, static_cast<std::uint32_t>(m[row][col]) | static_cast<std::uint32_t>(m[row + 1][col]) << 16);
  });
}

void nothing(ExecState&, const Instr&, std::uint32_t) {}

bool decode_mma(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  if (!q.take("sync") || !q.take("aligned")) {
    mark_unsupported(input, instr, "the form without .sync.aligned");
    return true;
  }
  const int shape = q.take_one({"m16n8k16", "m16n8k8", "m16n8k4", "m16n8k32", "m8n8k4"});
  const bool row_col = q.take("row") && q.take("col");
  if (q.take("satfinite")) instr.mods |= kSatFinite;
  const std::vector<Type> types = q.take_types();
  if (shape < 0 || !row_col || types.size() != 4 || types[1] != types[2] || instr.nops != 4) {
    mark_unsupported(input, instr, "this shape, layout or type combination");
    return true;
  }
  instr.shape = static_cast<std::uint8_t>(shape);
  instr.type = types[0];
  instr.type2 = types[1];
  instr.type3 = types[3];
  const Type a = types[1];
  const bool ok = (shape <= 1 && (a == Type::bf16 || a == Type::f16) &&
                   (types[0] == Type::f32 || (a == Type::f16 && types[0] == Type::f16))) ||
                  ((shape == 1 || shape == 2) && a == Type::tf32 && types[0] == Type::f32) ||
                  ((shape == 0 || shape == 3) && (a == Type::s8 || a == Type::u8) && types[0] == Type::s32) ||
                  (shape == 3 && (a == Type::e4m3 || a == Type::e5m2) && types[0] == Type::f32) ||
                  (shape == 4 && a == Type::f64 && types[0] == Type::f64);
  if (!ok || types[0] != types[3]) {
    mark_unsupported(input, instr, "this shape and type combination");
    return true;
  }
  instr.aux = kMma;
  instr.flow = Flow::warp_sync;
  instr.handler = nothing;
  return true;
}

bool decode_ldst_matrix(DecodeInput& input, Instr& instr, bool load) {
  Qualifiers& q = input.q;
  const bool aligned = q.take("sync") && q.take("aligned");
  const bool m8n8 = q.take("m8n8");
  const int count = q.take_one({"x1", "x2", "x4"});
  if (q.take("trans")) instr.mods |= kTrans;
  instr.space = decode_space(q);
  const std::vector<Type> types = q.take_types();
  if (!aligned || !m8n8 || count < 0 || types.size() != 1 || types[0] != Type::b16 || instr.nops != 2 ||
      (instr.space != Space::shared && instr.space != Space::generic)) {
    mark_unsupported(input, instr, "this form");
    return true;
  }
  instr.vec = static_cast<std::uint8_t>(1 << count);
  instr.aux = load ? kLdmatrix : kStmatrix;
  instr.flow = Flow::warp_sync;
  instr.handler = nothing;
  return true;
}

bool decode_movmatrix(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const bool aligned = q.take("sync") && q.take("aligned");
  const bool form = q.take("m8n8") && q.take("trans");
  const std::vector<Type> types = q.take_types();
  if (!aligned || !form || types.size() != 1 || types[0] != Type::b16 || instr.nops != 2 ||
      instr.ops[0].kind != Operand::Kind::reg) {
    mark_unsupported(input, instr, "this form");
    return true;
  }
  instr.aux = kMovmatrix;
  instr.flow = Flow::warp_sync;
  instr.handler = nothing;
  return true;
}

}  // namespace

void matrix_collective(Lanes& lanes) {
  const Instr& in = *lanes.instr[first_lane(lanes.members)];
  if (in.aux >= kWarpWmmaOps) wmma_collective(lanes);
  else if (in.aux == kMma) mma(lanes);
  else if (in.aux == kMovmatrix) move_in_registers(lanes);
  else move_matrix(lanes, in.aux == kLdmatrix);
}

bool decode_matrix(DecodeInput& input, Instr& instr) {
  const std::string& base = input.q.base();
  if (base == "mma") return decode_mma(input, instr);
  if (base == "ldmatrix") return decode_ldst_matrix(input, instr, true);
  if (base == "stmatrix") return decode_ldst_matrix(input, instr, false);
  if (base == "movmatrix") return decode_movmatrix(input, instr);
  if (base == "wgmma" || base == "tcgen05") {
    mark_unsupported(input, instr, base == "wgmma" ? "warpgroup MMA (wgmma) is not simulated" : "");
    return true;
  }
  return false;
}

}  // namespace pkb::ptx
