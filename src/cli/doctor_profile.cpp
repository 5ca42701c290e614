// profile_check and print_profile_check (see doctor_profile.h).
#include "src/cli/doctor_profile.h"

#include <cstdio>

#include "harness/cuda/bandwidth_probe.h"
#include "src/common/error.h"
#include "src/sol/profile.h"

namespace pkb::cli {
namespace {

nlohmann::ordered_json row(const std::string& name, const nlohmann::ordered_json& profile,
                           const nlohmann::ordered_json& measured, const std::string& unit,
                           const std::string& source) {
  return {{"name", name},
          {"profile", profile},
          {"measured", measured},
          {"unit", unit},
          {"source", source}};
}

nlohmann::ordered_json measured_or_null(const harness::BandwidthSample& sample, std::string& note) {
  if (sample.bytes_per_s > 0) return sample.bytes_per_s;
  note = sample.error;
  return nullptr;
}

std::string value_text(const nlohmann::ordered_json& value, const std::string& unit) {
  if (value.is_null()) return "-";
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  char text[64];
  const double number = value.get<double>();
  if (unit == "B/s")
    std::snprintf(text, sizeof text, "%.0f GB/s", number / 1e9);
  else if (unit == "B")
    std::snprintf(text, sizeof text, "%.0f MiB", number / (1 << 20));
  else
    std::snprintf(text, sizeof text, "%.0f", number);
  return text;
}

}  // namespace

nlohmann::ordered_json profile_check(const harness::MachineInfo& info, bool measure) {
  nlohmann::ordered_json check = {
      {"profile", nullptr}, {"why", ""}, {"rows", nlohmann::ordered_json::array()}};
  if (info.gpus.empty()) {
    check["why"] = "no GPU: nothing to compare (pkb sol --hardware KEY shows a profile's numbers)";
    return check;
  }
  std::optional<sol::Profile> profile;
  try {
    profile =
        sol::match_profile(sol::load_profiles(sol::default_profiles_path()), info.gpus[0].name);
  } catch (const Error& error) {
    check["why"] = error.what();
    return check;
  }
  if (!profile) {
    check["why"] = "no profile in prompts/hardware.json names '" + info.gpus[0].name + "'";
    return check;
  }
  check["profile"] = profile->key;
  std::string copy_note, peer_note;
  nlohmann::ordered_json copy = nullptr, peer = nullptr;
  if (measure) {
    copy = measured_or_null(harness::measure_copy_bandwidth(0), copy_note);
    if (info.gpus.size() > 1 && info.peer_access[0][1])
      peer = measured_or_null(harness::measure_peer_bandwidth(0, 1), peer_note);
    else
      peer_note = "needs two GPUs with peer access";
  }
  auto& rows = check["rows"];
  rows.push_back(row("hbm bandwidth (copy, read + write)", profile->hbm_bytes_per_s, copy, "B/s",
                     profile->sources["hbm_bytes_per_s"]));
  rows.push_back(row("nvlink, one direction (peer copy 0->1)", profile->link_bytes_per_s, peer,
                     "B/s", profile->sources["link_bytes_per_s"]));
  rows.push_back(
      row("nvls multicast", profile->nvls, info.gpus[0].multicast, "", profile->sources["nvls"]));
  rows.push_back(
      row("SMs", profile->sm_count, info.gpus[0].sm_count, "", profile->sources["sm_count"]));
  rows.push_back(row("L2", profile->l2_bytes, nullptr, "B", profile->sources["l2_bytes"]));
  for (const auto& [dtype, rate] : profile->dense_flops_per_s)
    rows.push_back(
        row("dense " + std::string(dtype_name(dtype)) + " FLOP/s (not measured)", rate, nullptr,
            "FLOP/s",
            profile->sources["dense_flops_per_s." +
                             std::string(dtype == DType::fp8e4m3 ? "fp8" : dtype_name(dtype))]));
  if (!copy_note.empty() || !peer_note.empty())
    check["why"] = "copy: " + copy_note + "; peer: " + peer_note;
  return check;
}

void print_profile_check(const nlohmann::ordered_json& check, std::ostream& out) {
  if (check["profile"].is_null()) {
    out << "sol profile   none: " << check["why"].get<std::string>() << "\n";
    return;
  }
  out << "sol profile   " << check["profile"].get<std::string>()
      << " (datasheet | measured here)\n";
  for (const auto& item : check["rows"]) {
    const std::string unit = item["unit"];
    std::string profile = unit == "FLOP/s"
                              ? value_text(item["profile"].get<double>() / 1e12, "") + " TFLOP/s"
                              : value_text(item["profile"], unit);
    out << "  " << item["name"].get<std::string>() << ": " << profile << " | "
        << value_text(item["measured"], unit) << "\n";
  }
  if (!check["why"].get<std::string>().empty())
    out << "  not measured: " << check["why"].get<std::string>() << "\n";
}

}  // namespace pkb::cli
