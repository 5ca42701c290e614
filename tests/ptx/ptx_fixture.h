// Running hand-written PTX on the interpreter, for the per-instruction tests: a module on W
// ranks of a bare Machine (no streams, no executor), host buffers registered as regions, and the
// common case of one warp whose lanes each read a 64-bit input and write a 64-bit result.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/ptx/machine.h"

namespace pkb::ptx_test {

class PtxFixture {
 public:
  explicit PtxFixture(int world = 1, int sms = 4);

  /// Loads `ptx` on every rank; throws ParseError for text the parser rejects.
  void load(const std::string& ptx);
  /// Zeroed host memory registered as rank `rank`'s region `name`.
  std::uint64_t alloc(int rank, std::size_t bytes, const std::string& name = "buffer");
  template <class T>
  void write(std::uint64_t address, const std::vector<T>& values) {
    std::memcpy(reinterpret_cast<void*>(address), values.data(), values.size() * sizeof(T));
  }
  template <class T>
  std::vector<T> read(std::uint64_t address, std::size_t count) const {
    std::vector<T> out(count);
    std::memcpy(out.data(), reinterpret_cast<const void*>(address), count * sizeof(T));
    return out;
  }
  /// Launches `kernel` on every rank with `params(rank)` and runs until every launch ends. Returns
  /// "" when all ended, the fault's message, or "idle: <where threads wait>" for a hang.
  std::string run(const std::string& kernel, ptx::Dim3 grid, ptx::Dim3 block,
                  const std::function<std::vector<std::string>(int rank)>& params,
                  std::uint32_t shared_bytes = 0, bool cooperative = false);
  /// The kind of the last run's fault (valid when run() returned a fault).
  ptx::Fault::Kind fault_kind() const { return fault_kind_; }
  ptx::Machine& machine() { return *machine_; }

 private:
  std::unique_ptr<ptx::Machine> machine_;
  std::vector<std::unique_ptr<std::uint8_t[]>> blocks_;
  ptx::Fault::Kind fault_kind_ = ptx::Fault::Kind::memory;
  int world_;
};

/// The bytes of a kernel parameter.
std::string u64_param(std::uint64_t value);
std::string u32_param(std::uint32_t value);

struct BodyRun {
  std::vector<std::uint64_t> out;  // per lane; lanes that returned early keep 0
  std::string fault;               // "" when the warp ended normally
  std::string note;                // the machine's note on undefined values read
};

/// Runs `body` in one block of `threads` threads (default one warp). Each thread has %in (.b64,
/// in[tid]) and %out (.b64, stored to out[tid] after the body; starts 0), %tid32 (.u32) and
/// %inptr / %outptr (its own element's address); the body may declare its own registers, branch,
/// and `ret` early (then nothing is stored). `seed` picks the random-preemption schedule.
BodyRun run_body(const std::string& body, const std::vector<std::uint64_t>& in, int threads = 32,
                 ptx::SchedulePolicy policy = ptx::SchedulePolicy::fair, std::uint64_t seed = 1);

/// Bits of floats, for inputs and expected values.
std::uint64_t f32_bits(float value);
float f32_of(std::uint64_t bits);
std::uint64_t f64_bits(double value);
double f64_of(std::uint64_t bits);

}  // namespace pkb::ptx_test
