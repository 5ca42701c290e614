// Name tables of ptx_types.h.
#include "harness/ptx/ptx_types.h"

#include <array>
#include <utility>

namespace pkb::ptx {
namespace {

struct TypeInfo {
  Type type;
  std::string_view name;
  int bytes;
};

constexpr std::array<TypeInfo, 27> kTypes = {{
    {Type::none, "", 0},        {Type::pred, "pred", 1},    {Type::b8, "b8", 1},
    {Type::b16, "b16", 2},      {Type::b32, "b32", 4},      {Type::b64, "b64", 8},
    {Type::b128, "b128", 16},   {Type::u8, "u8", 1},        {Type::u16, "u16", 2},
    {Type::u32, "u32", 4},      {Type::u64, "u64", 8},      {Type::s8, "s8", 1},
    {Type::s16, "s16", 2},      {Type::s32, "s32", 4},      {Type::s64, "s64", 8},
    {Type::f16, "f16", 2},      {Type::f16x2, "f16x2", 4},  {Type::bf16, "bf16", 2},
    {Type::bf16x2, "bf16x2", 4}, {Type::tf32, "tf32", 4},   {Type::f32, "f32", 4},
    {Type::f64, "f64", 8},      {Type::e4m3, "e4m3", 1},    {Type::e5m2, "e5m2", 1},
    {Type::e4m3x2, "e4m3x2", 2}, {Type::e5m2x2, "e5m2x2", 2}, {Type::none, "", 0},
}};

constexpr std::pair<std::string_view, SReg> kSRegs[] = {
    {"%tid.x", SReg::tid_x},
    {"%tid.y", SReg::tid_y},
    {"%tid.z", SReg::tid_z},
    {"%ntid.x", SReg::ntid_x},
    {"%ntid.y", SReg::ntid_y},
    {"%ntid.z", SReg::ntid_z},
    {"%ctaid.x", SReg::ctaid_x},
    {"%ctaid.y", SReg::ctaid_y},
    {"%ctaid.z", SReg::ctaid_z},
    {"%nctaid.x", SReg::nctaid_x},
    {"%nctaid.y", SReg::nctaid_y},
    {"%nctaid.z", SReg::nctaid_z},
    {"%laneid", SReg::laneid},
    {"%warpid", SReg::warpid},
    {"%nwarpid", SReg::nwarpid},
    {"%smid", SReg::smid},
    {"%nsmid", SReg::nsmid},
    {"%gridid", SReg::gridid},
    {"%lanemask_eq", SReg::lanemask_eq},
    {"%lanemask_le", SReg::lanemask_le},
    {"%lanemask_lt", SReg::lanemask_lt},
    {"%lanemask_ge", SReg::lanemask_ge},
    {"%lanemask_gt", SReg::lanemask_gt},
    {"%clock", SReg::clock},
    {"%clock_hi", SReg::clock_hi},
    {"%clock64", SReg::clock64},
    {"%globaltimer", SReg::globaltimer},
    {"%globaltimer_lo", SReg::globaltimer_lo},
    {"%globaltimer_hi", SReg::globaltimer_hi},
    {"%dynamic_smem_size", SReg::dynamic_smem_size},
    {"%total_smem_size", SReg::total_smem_size},
    {"%clusterid.x", SReg::clusterid_x},
    {"%clusterid.y", SReg::clusterid_y},
    {"%clusterid.z", SReg::clusterid_z},
    {"%nclusterid.x", SReg::nclusterid_x},
    {"%nclusterid.y", SReg::nclusterid_y},
    {"%nclusterid.z", SReg::nclusterid_z},
    {"%cluster_ctaid.x", SReg::cluster_ctaid_x},
    {"%cluster_ctaid.y", SReg::cluster_ctaid_y},
    {"%cluster_ctaid.z", SReg::cluster_ctaid_z},
    {"%cluster_nctaid.x", SReg::cluster_nctaid_x},
    {"%cluster_nctaid.y", SReg::cluster_nctaid_y},
    {"%cluster_nctaid.z", SReg::cluster_nctaid_z},
    {"%cluster_ctarank", SReg::cluster_ctarank},
    {"%cluster_nctarank", SReg::cluster_nctarank},
    {"%is_explicit_cluster", SReg::is_explicit_cluster},
};

const TypeInfo& info(Type type) {
  for (const auto& entry : kTypes)
    if (entry.type == type) return entry;
  return kTypes[0];
}

}  // namespace

int type_bytes(Type type) { return info(type).bytes; }

bool is_float(Type type) {
  switch (type) {
    case Type::f16: case Type::f16x2: case Type::bf16: case Type::bf16x2: case Type::tf32:
    case Type::f32: case Type::f64: case Type::e4m3: case Type::e5m2: case Type::e4m3x2:
    case Type::e5m2x2:
      return true;
    default: return false;
  }
}

bool is_signed(Type type) {
  return type == Type::s8 || type == Type::s16 || type == Type::s32 || type == Type::s64;
}

std::string_view type_name(Type type) { return info(type).name; }

Type parse_type(std::string_view name) {
  if (name.empty()) return Type::none;
  for (const auto& entry : kTypes)
    if (entry.name == name) return entry.type;
  return Type::none;
}

std::string_view space_name(Space space) {
  switch (space) {
    case Space::generic: return "generic";
    case Space::global: return "global";
    case Space::shared: return "shared";
    case Space::shared_cluster: return "shared::cluster";
    case Space::local: return "local";
    case Space::param: return "param";
    case Space::const_: return "const";
  }
  return "?";
}

bool parse_sreg(std::string_view name, SReg& out) {
  for (const auto& [text, sreg] : kSRegs)
    if (text == name) {
      out = sreg;
      return true;
    }
  return false;
}

}  // namespace pkb::ptx
