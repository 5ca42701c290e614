// Warp-level instructions against the PTX ISA: shfl.sync (every mode, segment width, clamp and the
// valid predicate, from the ISA's pseudocode), redux.sync, vote.sync, match.sync, elect.sync and
// activemask.
#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

std::vector<u64> lane_values() {
  std::vector<u64> in;
  for (u64 lane = 0; lane < 32; ++lane) in.push_back(0xA000 + lane * 0x11);
  return in;
}

// The ISA's shfl.sync semantics for lane `lane`: the value of lane j, and whether j was valid.
std::pair<unsigned, bool> shfl_source(const std::string& mode, unsigned lane, unsigned b, unsigned c) {
  const unsigned bval = b & 31, cval = c & 31, mask = (c >> 8) & 31;
  const unsigned max_lane = (lane & mask) | (cval & ~mask), min_lane = lane & mask;
  int j;
  bool valid;
  if (mode == "up") j = static_cast<int>(lane) - static_cast<int>(bval), valid = j >= static_cast<int>(max_lane);
  else if (mode == "down") j = static_cast<int>(lane + bval), valid = j <= static_cast<int>(max_lane);
  else if (mode == "bfly") j = static_cast<int>(lane ^ bval), valid = j <= static_cast<int>(max_lane);
  else j = static_cast<int>(min_lane | (bval & ~mask)), valid = j <= static_cast<int>(max_lane);
  return {valid ? static_cast<unsigned>(j) : lane, valid};
}

void expect_shfl(const std::string& mode, unsigned b, unsigned c) {
  const std::string body = ".reg .pred %ok;\n .reg .b32 %v, %r;\n cvt.u32.u64 %v, %in;\n shfl.sync." + mode +
                           ".b32 %r|%ok, %v, " + std::to_string(b) + ", " + std::to_string(c) +
                           ", -1;\n cvt.u64.u32 %out, %r;\n @%ok or.b64 %out, %out, 0x100000000;";
  const auto in = lane_values();
  const BodyRun run = run_body(body, in);
  ASSERT_EQ(run.fault, "") << body;
  for (unsigned lane = 0; lane < 32; ++lane) {
    const auto [j, valid] = shfl_source(mode, lane, b, c);
    EXPECT_EQ(hex(run.out[lane]), hex(in[j] | (valid ? 1ull << 32 : 0))) << mode << " b=" << b << " c=" << hex(c) << " lane " << lane;
  }
}

TEST(PtxWarp, ShflFollowsTheISAPseudocodeForEveryModeAndWidth) {
  for (unsigned width : {32u, 16u, 8u, 4u, 2u, 1u})
    for (unsigned b : {0u, 1u, 3u, 5u, 17u, 33u}) {
      const unsigned segment = (32 - width) << 8;
      expect_shfl("idx", b, segment | 31);
      expect_shfl("bfly", b, segment | 31);
      expect_shfl("down", b, segment | 31);
      expect_shfl("up", b, segment);
    }
  // Clamp values other than the usual ones.
  for (const char* mode : {"idx", "bfly", "down", "up"}) {
    expect_shfl(mode, 2, 0x0810);
    expect_shfl(mode, 6, 0x1F05);
    expect_shfl(mode, 1, 0x000B);
  }
}

TEST(PtxWarp, ShflWithPerLaneSourceAndPartialMask) {
  // idx with a register source lane; then lanes 0-15 alone (mask 0xffff) exchange by bfly 8.
  const BodyRun run = run_body(R"(
    .reg .pred %low;
    .reg .b32 %v, %src, %r, %s;
    cvt.u32.u64 %v, %in;
    mul.lo.u32 %src, %tid32, 7;
    shfl.sync.idx.b32 %r, %v, %src, 31, -1;
    setp.lt.u32 %low, %tid32, 16;
    @!%low bra SKIP;
    shfl.sync.bfly.b32 %s, %v, 8, 31, 0xffff;
    mov.b64 %out, {%r, %s};
    bra DONE;
  SKIP:
    mov.b64 %out, {%r, %v};
  DONE:
  )", lane_values());
  ASSERT_EQ(run.fault, "");
  const auto in = lane_values();
  for (unsigned lane = 0; lane < 32; ++lane) {
    const u64 s = lane < 16 ? in[lane ^ 8] : in[lane];
    EXPECT_EQ(hex(run.out[lane]), hex(in[(lane * 7) % 32] | s << 32)) << lane;
  }
}

const std::vector<u64> kReduxInputs = {5,  0xFFFFFFF0, 7,  100, 3,  0x80000000, 9,  1,  2,  0x7FFFFFFF, 4,
                                       6,  8,          10, 11,  12, 13,         14, 15, 16, 17, 0xFFFFFFFF,
                                       19, 20,         21, 22,  23, 24,         25, 26, 27, 28};
const std::vector<std::pair<std::string, std::function<u64(u64, u64)>>> kReduxOps = {
    {"add.u32", [](u64 x, u64 y) { return (x + y) & 0xFFFFFFFF; }},
    {"min.u32", [](u64 x, u64 y) { return std::min(x, y); }},
    {"max.u32", [](u64 x, u64 y) { return std::max(x, y); }},
    {"min.s32", [](u64 x, u64 y) { return static_cast<std::int32_t>(x) < static_cast<std::int32_t>(y) ? x : y; }},
    {"max.s32", [](u64 x, u64 y) { return static_cast<std::int32_t>(x) > static_cast<std::int32_t>(y) ? x : y; }},
    {"and.b32", [](u64 x, u64 y) { return x & y; }},
    {"or.b32", [](u64 x, u64 y) { return x | y; }},
    {"xor.b32", [](u64 x, u64 y) { return x ^ y; }},
};

u64 reduce(const std::function<u64(u64, u64)>& combine, int from, int count) {
  u64 r = kReduxInputs[from];
  for (int i = 1; i < count; ++i) r = combine(r, kReduxInputs[from + i]);
  return r;
}

TEST(PtxWarp, ReduxOverTheFullWarpAndOverTheLanesOfABranch) {
  // The whole warp, then lanes 0-15 alone (mask 0x0000ffff; lanes 16-31 branch around it).
  for (const auto& [op, combine] : kReduxOps) {
    const BodyRun run = run_body(R"(
      .reg .b32 %v, %whole, %half;
      .reg .pred %high;
      cvt.u32.u64 %v, %in;
      redux.sync.)" + op + R"( %whole, %v, 0xffffffff;
      mov.u32 %half, 0;
      setp.ge.u32 %high, %tid32, 16;
      @%high bra SKIP;
      redux.sync.)" + op + R"( %half, %v, 0x0000ffff;
    SKIP:
      mov.b64 %out, {%whole, %half};
    )", kReduxInputs);
    ASSERT_EQ(run.fault, "") << op;
    for (unsigned lane = 0; lane < 32; ++lane)
      EXPECT_EQ(hex(run.out[lane]), hex(reduce(combine, 0, 32) | (lane < 16 ? reduce(combine, 0, 16) : 0) << 32)) << op << " lane " << lane;
  }
}

TEST(PtxWarp, ReduxWithDisjointMasksAtOneInstruction) {
  // Lanes 0-15 pass 0x0000ffff and lanes 16-31 pass 0xffff0000 to the same redux.sync: every
  // thread named by each mask passes that same mask, as the ISA requires.
  const BodyRun run = run_body(R"(
    .reg .b32 %v, %half, %mask;
    .reg .pred %low;
    cvt.u32.u64 %v, %in;
    setp.lt.u32 %low, %tid32, 16;
    selp.b32 %mask, 0x0000ffff, 0xffff0000, %low;
    redux.sync.add.u32 %half, %v, %mask;
    cvt.u64.u32 %out, %half;
  )", kReduxInputs);
  ASSERT_EQ(run.fault, "");
  const auto add = kReduxOps[0].second;
  for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(hex(run.out[lane]), hex(reduce(add, lane < 16 ? 0 : 16, 16))) << lane;
}

TEST(PtxWarp, ShflAndVoteWithDisjointMasksAtOneInstruction) {
  // As for redux: each half-warp passes its own mask to the same shfl.sync and vote.sync.
  const BodyRun run = run_body(R"(
    .reg .b32 %v, %r, %mask, %ballot;
    .reg .pred %low, %even;
    cvt.u32.u64 %v, %in;
    setp.lt.u32 %low, %tid32, 16;
    selp.b32 %mask, 0x0000ffff, 0xffff0000, %low;
    shfl.sync.bfly.b32 %r, %v, 1, 31, %mask;
    and.b32 %ballot, %tid32, 1;
    setp.eq.u32 %even, %ballot, 0;
    vote.sync.ballot.b32 %ballot, %even, %mask;
    mov.b64 %out, {%r, %ballot};
  )", lane_values());
  ASSERT_EQ(run.fault, "");
  const auto in = lane_values();
  for (unsigned lane = 0; lane < 32; ++lane)
    EXPECT_EQ(hex(run.out[lane]), hex(in[lane ^ 1] | (lane < 16 ? 0x5555ull : 0x55550000ull) << 32)) << lane;
}

TEST(PtxWarp, VoteAllAnyUniAndBallot) {
  // p = lane < 20; q = lane % 2 == 0 (negated in one form); u: the same for every lane.
  const BodyRun run = run_body(R"(
    .reg .pred %p, %q, %u, %r<6>;
    .reg .b32 %b0, %b1, %bits, %parity;
    setp.lt.u32 %p, %tid32, 20;
    and.b32 %parity, %tid32, 1;
    setp.eq.u32 %q, %parity, 0;
    setp.lt.u32 %u, %tid32, 99;
    vote.sync.all.pred %r0, %u, -1;
    vote.sync.all.pred %r1, %p, -1;
    vote.sync.any.pred %r2, %p, -1;
    vote.sync.uni.pred %r3, %u, -1;
    vote.sync.uni.pred %r4, %q, -1;
    vote.sync.any.pred %r5, !%u, -1;
    vote.sync.ballot.b32 %b0, %p, -1;
    vote.sync.ballot.b32 %b1, !%q, -1;
    selp.u32 %bits, 1, 0, %r0;
    @%r1 or.b32 %bits, %bits, 2;
    @%r2 or.b32 %bits, %bits, 4;
    @%r3 or.b32 %bits, %bits, 8;
    @%r4 or.b32 %bits, %bits, 16;
    @%r5 or.b32 %bits, %bits, 32;
    xor.b32 %b0, %b0, %bits;
    mov.b64 %out, {%b0, %b1};
  )", {});
  ASSERT_EQ(run.fault, "");
  const u64 bits = 1 | 4 | 8;  // all(u), any(p), uni(u)
  for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(hex(run.out[lane]), hex((0xFFFFFull ^ bits) | 0xAAAAAAAAull << 32)) << lane;
}

TEST(PtxWarp, ShflOfF32RegistersAndVoteMatchOnPartialMasks) {
  // NVRTC shuffles f32 registers with .b32; lanes 8-15 alone vote and match with mask 0xff00.
  const BodyRun run = run_body(R"(
    .reg .f32 %x, %y;
    .reg .b32 %v, %bits, %ballot, %any;
    .reg .pred %part, %p, %all;
    cvt.rn.f32.u32 %x, %tid32;
    shfl.sync.down.b32 %y, %x, 1, 31, -1;
    cvt.rzi.u32.f32 %v, %y;
    mov.u32 %ballot, 0;
    mov.u32 %any, 0;
    setp.ge.u32 %part, %tid32, 8;
    setp.lt.u32 %p, %tid32, 16;
    and.pred %part, %part, %p;
    @!%part bra DONE;
    and.b32 %bits, %tid32, 1;
    setp.eq.u32 %p, %bits, 0;
    vote.sync.ballot.b32 %ballot, %p, 0xff00;
    vote.sync.all.pred %all, %part, 0xff00;
    @%all or.b32 %ballot, %ballot, 1;
    shr.u32 %bits, %tid32, 2;
    match.any.sync.b32 %any, %bits, 0xff00;
  DONE:
    or.b32 %v, %v, %any;
    mov.b64 %out, {%v, %ballot};
  )", {});
  ASSERT_EQ(run.fault, "");
  for (unsigned lane = 0; lane < 32; ++lane) {
    // down by 1: lane 31 keeps its own value. ballot of the even lanes 8-14, | 1 for all(); match
    // groups lanes by lane / 4.
    const bool in_part = lane >= 8 && lane < 16;
    const u64 v = (lane == 31 ? 31 : lane + 1) | (in_part ? (lane < 12 ? 0x0F00 : 0xF000) : 0);
    const u64 ballot = in_part ? 0x5500 | 1 : 0;
    EXPECT_EQ(hex(run.out[lane]), hex(v | ballot << 32)) << lane;
  }
}

TEST(PtxWarp, MatchAllAndAny) {
  // All equal: d = mask, p = 1. Not all equal: d = 0, p = 0. match.any: the lanes with my value.
  const BodyRun run = run_body(R"(
    .reg .pred %same, %diff;
    .reg .b32 %a, %k, %d0, %d1, %d2, %flags;
    .reg .b64 %w;
    mov.u32 %k, 42;
    match.all.sync.b32 %d0|%same, %k, 0xffffffff;
    and.b32 %a, %tid32, 3;
    match.all.sync.b32 %d1|%diff, %a, 0xffffffff;
    cvt.u64.u32 %w, %a;
    shl.b64 %w, %w, 40;
    match.any.sync.b64 %d2, %w, 0xffffffff;
    selp.u32 %flags, 1, 0, %same;
    @%diff or.b32 %flags, %flags, 2;
    xor.b32 %d0, %d0, %flags;
    or.b32 %d1, %d1, %d2;
    mov.b64 %out, {%d0, %d1};
  )", {});
  ASSERT_EQ(run.fault, "");
  for (unsigned lane = 0; lane < 32; ++lane)
    EXPECT_EQ(hex(run.out[lane]), hex((0xFFFFFFFFull ^ 1) | (0x11111111ull << (lane % 4)) << 32)) << lane;
}

TEST(PtxWarp, ElectPicksOneLaneOfTheMaskAndActivemaskSeesTheBranch) {
  const BodyRun run = run_body(R"(
    .reg .pred %in_mask, %leader, %taken;
    .reg .b32 %bit, %m, %e, %active, %three;
    mov.u32 %e, 0;
    mov.u32 %active, 0;
    shl.b32 %bit, 1, %tid32;
    and.b32 %m, %bit, 0xf0f0f0f0;
    setp.ne.u32 %in_mask, %m, 0;
    @!%in_mask bra BRANCH;
    elect.sync %e|%leader, 0xf0f0f0f0;
    selp.u32 %m, 0x100, 0, %leader;
    or.b32 %e, %e, %m;
  BRANCH:
    rem.u32 %three, %tid32, 3;
    setp.eq.u32 %taken, %three, 0;
    @!%taken bra DONE;
    activemask.b32 %active;
  DONE:
    mov.b64 %out, {%e, %active};
  )", {});
  ASSERT_EQ(run.fault, "");
  int leaders = 0;
  const unsigned leader = static_cast<unsigned>(run.out[4] & 0xFF);
  EXPECT_TRUE((0xF0F0F0F0u >> leader) & 1) << leader;
  std::uint32_t branch = 0;
  for (unsigned lane = 0; lane < 32; lane += 3) branch |= 1u << lane;
  for (unsigned lane = 0; lane < 32; ++lane) {
    const u64 e = run.out[lane] & 0xFFFFFFFF;
    const auto active = static_cast<std::uint32_t>(run.out[lane] >> 32);
    if ((0xF0F0F0F0u >> lane) & 1) {
      EXPECT_EQ(e & 0xFF, leader) << lane;
      leaders += (e & 0x100) != 0;
      EXPECT_EQ((e & 0x100) != 0, lane == leader) << lane;
    }
    if (lane % 3 == 0) {
      EXPECT_TRUE((active >> lane) & 1) << "activemask of lane " << lane << " misses itself: " << hex(active);
      EXPECT_EQ(active & ~branch, 0u) << "activemask of lane " << lane << " names lanes outside the branch: " << hex(active);
    }
  }
  EXPECT_EQ(leaders, 1);
}

}  // namespace
}  // namespace pkb::ptx_test
