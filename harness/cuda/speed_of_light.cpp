// The interim speed-of-light bound (see speed_of_light.h).
#include "harness/cuda/speed_of_light.h"

namespace pkb::harness {

double sol_bound_us(double input_bytes, double hbm_bytes_per_s) {
  return hbm_bytes_per_s > 0 ? input_bytes / hbm_bytes_per_s * 1e6 : 0;
}

bool beats_speed_of_light(double median_us, double bound_us) {
  return bound_us > 0 && median_us < bound_us;
}

}  // namespace pkb::harness
