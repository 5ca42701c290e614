// timing_details: a time is never shown without its spread and count (docs/STYLE.md, "Output").
#include "src/feedback/timing_text.h"

#include "src/feedback/record_fields.h"

namespace pkb::feedback {
namespace {

// "median 41.3 us (p10 40.1 us, p90 43.4 us, 200 iterations)"
std::string time_line(const nlohmann::json& stats) {
  std::string line = "median " + number_or(stats, "median_us", "?") + " us";
  const auto p10 = number_field(stats, "p10_us");
  const auto p90 = number_field(stats, "p90_us");
  const auto iterations = number_field(stats, "iterations");
  std::string spread;
  if (p10 && p90) spread = "p10 " + number_text(*p10) + " us, p90 " + number_text(*p90) + " us";
  if (iterations) spread += (spread.empty() ? "" : ", ") + number_text(*iterations) + " iterations";
  return spread.empty() ? line : line + " (" + spread + ")";
}

}  // namespace

bool timing_emulated(const nlohmann::json& record) {
  return flag_field(object_field(record, "timing"), "emulated");
}

std::string timing_details(const nlohmann::json& record) {
  const nlohmann::json& timing = object_field(record, "timing");
  if (timing.empty()) return "";
  std::string out = "your kernels: " + time_line(object_field(timing, "candidate")) + "\n";
  const std::string kind = text_field(timing, "baseline_kind");
  out += "baseline" + (kind.empty() ? "" : " (" + kind + ")") + ": " +
         time_line(object_field(timing, "baseline")) + "\n";
  if (const auto speedup = number_field(timing, "speedup"))
    out += "speedup: " + number_text(*speedup) + "x the baseline (above 1 is faster)\n";
  if (const auto fraction = number_field(record, "sol_fraction")) {
    out += "speed of light: " + number_text(*fraction) + " of the floor";
    if (const auto floor_ms = number_field(record, "sol_ms"))
      out += " (the floor of one call: " + number_text(*floor_ms) + " ms)";
    out += "; 1 would be the hardware's limit\n";
  }
  if (flag_field(record, "suspicious_fast") || flag_field(timing, "sol_flag"))
    out +=
        "warning: this is faster than the hardware allows, so the timing does not count; "
        "make sure every call does all of its work\n";
  out += timing_emulated(record)
             ? "timing: emulated (ranks shared a GPU), so the speed is not trusted\n"
             : "timing: measured with one GPU per rank\n";
  return out;
}

}  // namespace pkb::feedback
