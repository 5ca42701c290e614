// timing_details: a time is never shown without its spread and count (docs/STYLE.md, "Output").
#include "src/feedback/timing_text.h"

#include "src/feedback/number_text.h"

namespace pkb::feedback {
namespace {

// "median 41.3 us (p10 40.1 us, p90 43.4 us, 200 iterations)"
std::string time_line(const results::TimeStats& stats) {
  std::string line = "median " + number_or(stats.median_us, "?") + " us";
  std::string spread;
  if (stats.p10_us && stats.p90_us)
    spread = "p10 " + number_text(*stats.p10_us) + " us, p90 " + number_text(*stats.p90_us) + " us";
  if (stats.iterations)
    spread += (spread.empty() ? "" : ", ") + number_text(*stats.iterations) + " iterations";
  return spread.empty() ? line : line + " (" + spread + ")";
}

std::optional<results::TimingSummary> timing_of(const results::Record& record) {
  if (!record.evaluation) return std::nullopt;
  return results::timing_summary(record.evaluation->timing);
}

}  // namespace

bool timing_emulated(const results::Record& record) {
  const auto timing = timing_of(record);
  return timing && timing->emulated;
}

std::string timing_details(const results::Record& record) {
  const auto timing = timing_of(record);
  if (!timing) return "";
  const results::Evaluation& evaluation = *record.evaluation;
  std::string out = "your kernels: " + time_line(timing->candidate) + "\n";
  const std::string& kind = timing->baseline_kind;
  out += "baseline" + (kind.empty() ? "" : " (" + kind + ")") + ": " + time_line(timing->baseline) +
         "\n";
  if (timing->speedup)
    out += "speedup: " + number_text(*timing->speedup) + "x the baseline (above 1 is faster)\n";
  if (const auto fraction = evaluation.sol_fraction) {
    out += "speed of light: " + number_text(*fraction) + " of the floor";
    if (const auto floor_ms = evaluation.sol_ms)
      out += " (the floor of one call: " + number_text(*floor_ms) + " ms)";
    out += "; 1 would be the hardware's limit\n";
  }
  if (evaluation.suspicious_fast || timing->sol_flag)
    out +=
        "warning: this is faster than the hardware allows, so the timing does not count; "
        "make sure every call does all of its work\n";
  out += timing->emulated ? "timing: emulated (ranks shared a GPU), so the speed is not trusted\n"
                          : "timing: measured with one GPU per rank\n";
  return out;
}

}  // namespace pkb::feedback
