// See ptx_fixture.h.
#include "tests/ptx/ptx_fixture.h"

#include "harness/ptx/program.h"

namespace pkb::ptx_test {

PtxFixture::PtxFixture(int world, int sms) : world_(world) {
  ptx::GpuLimits limits;
  limits.sms = sms;
  machine_ = std::make_unique<ptx::Machine>(world, limits);
  machine_->set_schedule({});
}

void PtxFixture::load(const std::string& ptx) {
  auto program = ptx::load_program(ptx);
  for (int rank = 0; rank < world_; ++rank) machine_->load_module(rank, program);
}

std::uint64_t PtxFixture::alloc(int rank, std::size_t bytes, const std::string& name) {
  blocks_.push_back(std::make_unique<std::uint8_t[]>(bytes + 256));
  const auto raw = reinterpret_cast<std::uint64_t>(blocks_.back().get());
  const std::uint64_t at = (raw + 255) / 256 * 256;
  machine_->memory().add(at, bytes, rank, name);
  return at;
}

std::string PtxFixture::run(const std::string& kernel, ptx::Dim3 grid, ptx::Dim3 block,
                            const std::function<std::vector<std::string>(int)>& params,
                            std::uint32_t shared_bytes, bool cooperative) {
  try {
    for (int rank = 0; rank < world_; ++rank)
      machine_->launch(rank, kernel, grid, block, {1, 1, 1}, shared_bytes, cooperative, params(rank));
  } catch (const ptx::LaunchRefused& refused) {
    fault_kind_ = ptx::Fault::Kind::launch;
    return refused.what();
  }
  while (machine_->busy()) {
    const ptx::RunResult result = machine_->run(1'000'000'000);
    if (result.kind == ptx::RunResult::Kind::fault) {
      fault_kind_ = result.fault->kind;
      return result.fault->message;
    }
    if (result.kind == ptx::RunResult::Kind::idle) {
      if (const auto stuck = machine_->stuck_warp_sync()) {
        fault_kind_ = stuck->kind;
        return stuck->message;
      }
      if (const auto wake = machine_->next_wake()) {
        machine_->advance_clock(*wake - machine_->now_ns());
        continue;
      }
      if (machine_->has_parked() && machine_->now_ns() < 60'000'000'000ull) {
        machine_->advance_clock(1'000'000'000);  // let time-outs in spin loops fire
        continue;
      }
      fault_kind_ = ptx::Fault::Kind::deadlock;
      return "idle: " + machine_->describe_waits(8);
    }
    if (result.kind == ptx::RunResult::Kind::budget) return "budget";
  }
  return "";
}

std::string u64_param(std::uint64_t value) {
  return std::string(reinterpret_cast<const char*>(&value), 8);
}

std::string u32_param(std::uint32_t value) {
  return std::string(reinterpret_cast<const char*>(&value), 4);
}

BodyRun run_body(const std::string& body, const std::vector<std::uint64_t>& in, int threads,
                 ptx::SchedulePolicy policy, std::uint64_t seed) {
  const std::string module = R"(.version 9.0
.target sm_90a
.address_size 64
.visible .entry body_kernel(.param .u64 out_ptr, .param .u64 in_ptr)
{
  .reg .b64 %in, %out, %inptr, %outptr, %offset;
  .reg .b32 %tid32;
  ld.param.u64 %outptr, [out_ptr];
  ld.param.u64 %inptr, [in_ptr];
  mov.u32 %tid32, %tid.x;
  mul.wide.u32 %offset, %tid32, 8;
  add.s64 %outptr, %outptr, %offset;
  add.s64 %inptr, %inptr, %offset;
  ld.global.u64 %in, [%inptr];
  mov.b64 %out, 0;
  {
)" + body + R"(
  }
  st.global.u64 [%outptr], %out;
  ret;
}
)";
  PtxFixture fixture;
  ptx::Schedule schedule;
  schedule.policy = policy;
  schedule.seed = seed;
  fixture.machine().set_schedule(schedule);
  fixture.load(module);
  const auto n = static_cast<std::size_t>(threads);
  const std::uint64_t out = fixture.alloc(0, n * 8, "out"), input = fixture.alloc(0, n * 8, "in");
  std::vector<std::uint64_t> values = in;
  values.resize(n, 0);
  fixture.write(input, values);
  BodyRun run;
  run.fault = fixture.run("body_kernel", {1, 1, 1}, {static_cast<std::uint32_t>(threads), 1, 1},
                          [&](int) { return std::vector<std::string>{u64_param(out), u64_param(input)}; });
  run.out = fixture.read<std::uint64_t>(out, n);
  run.note = fixture.machine().undefined_note();
  return run;
}

std::uint64_t f32_bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

float f32_of(std::uint64_t bits) {
  const auto narrow = static_cast<std::uint32_t>(bits);
  float value;
  std::memcpy(&value, &narrow, 4);
  return value;
}

std::uint64_t f64_bits(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return bits;
}

double f64_of(std::uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, 8);
  return value;
}

}  // namespace pkb::ptx_test
