// ldmatrix / stmatrix m8n8 .b16 (.x1 .x2 .x4, with and without .trans) and movmatrix: each of the
// first 8 x num lanes names one row; lane t's register j holds row t / 4, columns 2 (t % 4), +1.
#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

// Lane L supplies the address of stored row perm(L) (rows are 32 bytes apart, 8 b16 each).
unsigned perm(unsigned lane) { return (lane * 5 + 3) % 32; }
// The value stored in row `row`, column `col` of the tile.
unsigned stored(unsigned row, unsigned col) { return 0x100 + row * 8 + col; }

// Fills the shared tile (lane L writes row L), then each lane takes the address of row perm(L).
std::string fill_tile() {
  std::string body = R"(
    .shared .align 16 .b8 tile[1024];
    .reg .b32 %base, %addr, %v, %prow, %d<4>;
    .reg .b16 %h;
    mov.u32 %base, tile;
    mad.lo.u32 %addr, %tid32, 32, %base;
    mad.lo.u32 %v, %tid32, 8, 0x100;
  )";
  for (int c = 0; c < 8; ++c)
    body += "cvt.u16.u32 %h, %v;\n st.shared.u16 [%addr+" + std::to_string(2 * c) + "], %h;\n add.u32 %v, %v, 1;\n";
  body += R"(
    bar.warp.sync -1;
    mad.lo.u32 %prow, %tid32, 5, 3;
    rem.u32 %prow, %prow, 32;
    mad.lo.u32 %addr, %prow, 32, %base;
  )";
  return body;
}

void expect_ldmatrix(const std::string& num, bool trans) {
  const int matrices = num == "x1" ? 1 : num == "x2" ? 2 : 4;
  const std::string regs = matrices == 1 ? "{%d0}" : matrices == 2 ? "{%d0, %d1}" : "{%d0, %d1, %d2, %d3}";
  for (int first = 0; first < matrices; first += 2) {
    const std::string high = first + 1 < matrices ? "%d" + std::to_string(first + 1) : "0";
    const std::string body = fill_tile() + "ldmatrix.sync.aligned.m8n8." + num + (trans ? ".trans" : "") + ".shared.b16 " + regs +
                             ", [%addr];\n mov.u32 %v, " + high + ";\n mov.b64 %out, {%d" + std::to_string(first) + ", %v};";
    const BodyRun run = run_body(body, {});
    ASSERT_EQ(run.fault, "") << body;
    for (unsigned t = 0; t < 32; ++t)
      for (int j = first; j < std::min(first + 2, matrices); ++j) {
        u64 want = 0;
        for (unsigned i = 0; i < 2; ++i) {
          const unsigned r = trans ? 2 * (t % 4) + i : t / 4, c = trans ? t / 4 : 2 * (t % 4) + i;
          want |= u64{stored(perm(8 * j + r), c)} << (16 * i);
        }
        EXPECT_EQ(hex((run.out[t] >> (32 * (j - first))) & 0xFFFFFFFF), hex(want))
            << "ldmatrix." << num << (trans ? ".trans" : "") << " lane " << t << " register " << j;
      }
  }
}

TEST(PtxLdmatrix, LoadsEveryNumWithAndWithoutTrans) {
  for (const char* num : {"x1", "x2", "x4"})
    for (bool trans : {false, true}) expect_ldmatrix(num, trans);
}

TEST(PtxLdmatrix, StmatrixX4StoresTheFragmentsToTheNamedRows) {
  // Lane t's register j holds (0x2000 + j * 0x100 + 2t, ... + 1); after the store, lane L reads
  // back stored row L (half `part` of it).
  for (bool trans : {false, true})
    for (int part = 0; part < 2; ++part) {
      const std::string body = R"(
        .shared .align 16 .b8 tile[1024];
        .reg .b32 %base, %addr, %prow, %lo, %hi, %r<4>;
        mov.u32 %base, tile;
        mad.lo.u32 %prow, %tid32, 5, 3;
        rem.u32 %prow, %prow, 32;
        mad.lo.u32 %addr, %prow, 32, %base;
        shl.b32 %lo, %tid32, 1;
        add.u32 %lo, %lo, 0x2000;
        add.u32 %hi, %lo, 1;
        shl.b32 %hi, %hi, 16;
        or.b32 %r0, %lo, %hi;
        add.u32 %r1, %r0, 0x01000100;
        add.u32 %r2, %r0, 0x02000200;
        add.u32 %r3, %r0, 0x03000300;
        stmatrix.sync.aligned.m8n8.x4)" + std::string(trans ? ".trans" : "") + R"(.shared.b16 [%addr], {%r0, %r1, %r2, %r3};
        bar.warp.sync -1;
        mad.lo.u32 %addr, %tid32, 32, %base;
        ld.shared.u64 %out, [%addr+)" + std::to_string(8 * part) + "];";
      const BodyRun run = run_body(body, {});
      ASSERT_EQ(run.fault, "") << body;
      // Stored row R came from the lane L with perm(L) = R: matrix j = L / 8, row r = L % 8.
      for (unsigned lane = 0; lane < 32; ++lane) {
        const unsigned stored_row = lane;
        unsigned from = 0;
        while (perm(from) != stored_row) ++from;
        const unsigned j = from / 8, r = from % 8;
        u64 want = 0;
        for (unsigned k = 0; k < 4; ++k) {
          const unsigned c = 4 * part + k;
          // Element (r, c) of matrix j: non-trans from lane 4r + c/2, half c%2; trans from lane
          // 4c + r/2, half r%2.
          const unsigned t = trans ? 4 * c + r / 2 : 4 * r + c / 2, i = trans ? r % 2 : c % 2;
          want |= u64{0x2000 + j * 0x100 + 2 * t + i} << (16 * k);
        }
        EXPECT_EQ(hex(run.out[lane]), hex(want)) << (trans ? "trans " : "") << "stored row " << stored_row << " part " << part;
      }
    }
}

TEST(PtxLdmatrix, MovmatrixTransposesAFragmentInRegisters) {
  // Lane t holds M[t / 4][2 (t % 4) + i] = 0x100 + 8 row + col; afterwards it holds the transpose's
  // element at the same place, M[2 (t % 4) + i][t / 4].
  const BodyRun run = run_body(R"(
    .reg .b32 %lo, %hi, %a, %d;
    shl.b32 %lo, %tid32, 1;
    add.u32 %lo, %lo, 0x100;
    add.u32 %hi, %lo, 1;
    shl.b32 %hi, %hi, 16;
    or.b32 %a, %lo, %hi;
    movmatrix.sync.aligned.m8n8.trans.b16 %d, %a;
    cvt.u64.u32 %out, %d;
  )", {});
  ASSERT_EQ(run.fault, "");
  for (unsigned t = 0; t < 32; ++t) {
    const u64 want = (0x100 + 8 * (2 * (t % 4)) + t / 4) | u64{0x100 + 8 * (2 * (t % 4) + 1) + t / 4} << 16;
    EXPECT_EQ(hex(run.out[t]), hex(want)) << t;
  }
}

}  // namespace
}  // namespace pkb::ptx_test
