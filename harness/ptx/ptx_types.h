// The vocabulary of decoded PTX: scalar types, state spaces, memory orderings and scopes, rounding
// modes, comparison and boolean operators, special registers. Names follow the PTX ISA spelling
// without the leading dot, so a message can print them back as the source wrote them.
#pragma once

#include <cstdint>
#include <string_view>

namespace pkb::ptx {

enum class Type : std::uint8_t {
  none, pred,
  b8, b16, b32, b64, b128,
  u8, u16, u32, u64,
  s8, s16, s32, s64,
  f16, f16x2, bf16, bf16x2, tf32, f32, f64,
  e4m3, e5m2, e4m3x2, e5m2x2,
};

/// Bytes a value of `type` occupies in memory (pred: 1; none: 0).
int type_bytes(Type type);
bool is_float(Type type);   // f16 f16x2 bf16 bf16x2 tf32 f32 f64 (and the fp8 forms)
bool is_signed(Type type);  // s8 .. s64
std::string_view type_name(Type type);
/// "u32" -> Type::u32; Type::none when `name` is not a type.
Type parse_type(std::string_view name);

enum class Space : std::uint8_t { generic, global, shared, shared_cluster, local, param, const_ };
std::string_view space_name(Space space);

/// The memory-ordering qualifier of ld, st, atom, red and fence.
enum class Sem : std::uint8_t { weak, volatile_, relaxed, acquire, release, acq_rel, sc, mmio };
enum class Scope : std::uint8_t { none, cta, cluster, gpu, sys };

/// Float rounding (.rn .rz .rm .rp) and integer rounding of cvt (.rni .rzi .rmi .rpi).
enum class Round : std::uint8_t { none, rn, rz, rm, rp, rna, rni, rzi, rmi, rpi, rs };

enum class Cmp : std::uint8_t {
  eq, ne, lt, le, gt, ge,      // signed / ordered
  lo, ls, hi, hs,              // unsigned
  equ, neu, ltu, leu, gtu, geu,  // unordered float
  num, nan,
};

enum class BoolOp : std::uint8_t { none, and_, or_, xor_ };

enum class SReg : std::uint8_t {
  tid_x, tid_y, tid_z, ntid_x, ntid_y, ntid_z,
  ctaid_x, ctaid_y, ctaid_z, nctaid_x, nctaid_y, nctaid_z,
  laneid, warpid, nwarpid, smid, nsmid, gridid,
  lanemask_eq, lanemask_le, lanemask_lt, lanemask_ge, lanemask_gt,
  clock, clock_hi, clock64, globaltimer, globaltimer_lo, globaltimer_hi,
  dynamic_smem_size, total_smem_size,
  clusterid_x, clusterid_y, clusterid_z, nclusterid_x, nclusterid_y, nclusterid_z,
  cluster_ctaid_x, cluster_ctaid_y, cluster_ctaid_z,
  cluster_nctaid_x, cluster_nctaid_y, cluster_nctaid_z,
  cluster_ctarank, cluster_nctarank, is_explicit_cluster,
  count,
};

/// "%tid.x" -> SReg::tid_x; false when `name` is not a special register pkb knows.
bool parse_sreg(std::string_view name, SReg& out);

}  // namespace pkb::ptx
