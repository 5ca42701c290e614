// Running a litmus case on the interpreter: one kernel whose threads branch on (rank, block,
// thread) to their roles, launched on every rank of a bare Machine under one schedule, with the
// PTX memory model's race detector on (findings recorded, the run continues).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/ptx/machine.h"
#include "tests/ptx/litmus/litmus_case.h"

namespace pkb::ptx_test {

struct LitmusRun {
  std::string fault;                              // "" when every launch ended
  std::vector<std::vector<std::uint32_t>> regs;   // per thread of the case: %r0..%r15 at its end
  std::vector<std::uint32_t> memory;              // per location: its final value
  std::vector<std::string> errors, warnings;      // the detector's findings of this run
};

/// The PTX module of `c` (kernel `litmus`): registers %r0..%r15 (.b32, start 0) and %p0..%p3 per
/// thread, `[name]` of a location rewritten to the register holding its address. With `space:
/// shared` the locations are block 0's shared memory: thread 0 writes their initial values before a
/// bar.sync and copies their final values out after another one that every thread meets.
std::string litmus_module(const LitmusCase& c);

/// Runs `c` once under `schedule` on a fresh machine of c.world() ranks.
LitmusRun run_litmus(const LitmusCase& c, const ptx::Schedule& schedule);

/// The schedules every case runs under on `world` ranks: fair, rank order, reverse rank order,
/// then `random_seeds` seeds of random preemption.
std::vector<ptx::Schedule> litmus_schedules(int world, int random_seeds);
std::string schedule_text(const ptx::Schedule& schedule);

/// "P1:r1=1 P1:r2=0 x=1": the registers the condition names, then every location.
std::string outcome_text(const LitmusCase& c, const LitmusRun& run);

}  // namespace pkb::ptx_test
