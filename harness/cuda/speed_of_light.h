// The interim speed-of-light bound (until issue 10 brings real per-problem bounds): a call cannot
// finish before its inputs were read once from HBM, so a median below that time is flagged as
// suspicious (a cached or skipped computation), not celebrated. Pure: unit-tested.
#pragma once

namespace pkb::harness {

/// Microseconds to read `input_bytes` at `hbm_bytes_per_s`; 0 when the bandwidth is unknown.
/// `input_bytes` is what one GPU reads: in emulation, every rank's inputs together.
double sol_bound_us(double input_bytes, double hbm_bytes_per_s);

/// True when `median_us` beats the bound.
bool beats_speed_of_light(double median_us, double bound_us);

}  // namespace pkb::harness
