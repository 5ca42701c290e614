// Score as text: '#' lines with the inputs and settings, the headline metrics with intervals, the
// status counts and notes, then an optional breakdown (docs/STYLE.md, "Output"); and as CSV.
#include <cstdio>
#include <sstream>

#include "src/score/score_report.h"

namespace pkb::score {
namespace {

std::string number(const std::optional<double>& value, const char* format = "%.3f") {
  if (!value) return "-";
  char text[64];
  std::snprintf(text, sizeof text, format, *value);
  return text;
}

std::string join_ints(const std::vector<int>& values) {
  std::string text;
  for (int value : values) text += (text.empty() ? "" : ",") + std::to_string(value);
  return text;
}

std::string fingerprint_field(const Score& score, const char* name) {
  auto it = score.pool.fingerprint.find(name);
  if (it == score.pool.fingerprint.end() || it->is_null()) return "?";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

// The breakdown columns: pass@k per k, fast_p@1 per p > 0, geomean, compile rate.
std::vector<std::string> breakdown_metrics(const Score& score) {
  std::vector<std::string> names;
  for (int k : score.ks) names.push_back("pass@" + std::to_string(k));
  for (double p : score.settings.ps)
    if (p > 0) names.push_back(fast_name(p, 1));
  names.push_back("geomean_speedup");
  names.push_back("median_sol_fraction");
  names.push_back("compile_rate");
  return names;
}

std::vector<GroupScore> breakdown_rows(const Score& score, Breakdown by) {
  if (by == Breakdown::category) return score.categories;
  std::vector<GroupScore> rows;
  if (by == Breakdown::problem)
    for (const auto& tally : score.problems) rows.push_back(problem_group(score, tally));
  return rows;
}

// The by-turn columns: pass@k per k, then fast_p@1 per p > 0 (fast_0 is pass).
std::vector<std::string> turn_metrics(const Score& score) {
  std::vector<std::string> names;
  for (int k : score.ks) names.push_back("pass@" + std::to_string(k));
  for (double p : score.settings.ps)
    if (p > 0) names.push_back(fast_name(p, 1));
  return names;
}

// Only for runs with refinement turns: a run of one turn prints what it always printed.
void turn_table(std::ostringstream& out, const Score& score) {
  if (score.turns <= 1) return;
  const std::vector<std::string> columns = turn_metrics(score);
  char line[160];
  out << "\nby turn (turn t scores each sample's first t answers; no intervals)\n";
  std::snprintf(line, sizeof line, "%-6s %8s %8s", "turn", "samples", "correct");
  out << line;
  for (const auto& column : columns) {
    std::snprintf(line, sizeof line, " %12s", column.c_str());
    out << line;
  }
  out << "\n";
  for (const auto& row : score.per_turn) {
    std::snprintf(line, sizeof line, "%-6d %8d %8d", row.turn, row.group.samples, row.correct);
    out << line;
    for (const auto& column : columns) {
      const Estimate* estimate = row.group.find(column);
      const std::string cell = number(estimate ? estimate->value : std::nullopt);
      std::snprintf(line, sizeof line, " %12s", cell.c_str());
      out << line;
    }
    out << "\n";
  }
}

// A run without --world gives each problem its largest world size: the fingerprint holds 0.
std::string world_text(const std::string& world) {
  return world == "0" ? "each problem's largest" : world;
}

}  // namespace

std::string score_table(const Score& score, Breakdown by) {
  std::ostringstream out;
  std::string inputs;
  for (const auto& input : score.pool.inputs) inputs += (inputs.empty() ? "" : ", ") + input;
  const GroupScore& all = score.overall;
  out << "# pkb score: " << inputs << "\n"
      << "# model: " << fingerprint_field(score, "model")
      << "   hardware: " << (score.pool.hardware_key.empty() ? "?" : score.pool.hardware_key)
      << "   world: " << world_text(fingerprint_field(score, "world"))
      << "   dtype: " << fingerprint_field(score, "dtype")
      << (score.turns > 1 ? "   turns: " + std::to_string(score.turns) : std::string()) << "\n"
      << "# k: " << join_ints(score.ks) << "   intervals: 95%, " << score.settings.bootstrap
      << " bootstrap resamples over problems, seed " << score.settings.seed << "\n"
      << "# problems: " << all.problems << " (" << all.problems_scored << " scored, "
      << all.problems_unknown << " not executed, " << all.problems_empty
      << " without samples)   samples: " << all.samples << "   timed: " << all.timed_samples
      << "   records skipped: " << score.pool.skipped.size() << "\n";
  if (all.simulated_records > 0)
    out << "# judged on the simulated node: " << all.simulated_records
        << " records (the candidates' PTX run on the CPU): they count toward pass@k, never toward "
           "fast_p; nothing they ran was timed\n";
  char line[160];
  std::snprintf(line, sizeof line, "%-22s %9s  %s\n", "metric", "value", "95% interval");
  out << line;
  for (const auto& estimate : all.metrics) {
    std::string interval = estimate.low ? "[" + number(estimate.low) + ", " + number(estimate.high) + "]"
                                        : (estimate.value ? "-" : "");
    const bool estimator = estimate.name.rfind("pass@", 0) == 0 || estimate.name.rfind("fast_", 0) == 0;
    if (!estimate.value && estimator && all.problems_scored == 0 && all.problems_unknown > 0)
      interval = all.statuses.count("compiled") ? "not executed (no verdict)" : "not evaluated";
    else if (!estimate.value && estimate.name.rfind("fast_", 0) == 0 && all.simulated_records > 0 &&
             all.timed_samples == 0)
      interval = "not timed (the simulated node measures nothing)";
    std::snprintf(line, sizeof line, "%-22s %9s  %s\n", estimate.name.c_str(),
                  number(estimate.value).c_str(), interval.c_str());
    out << line;
  }
  out << "statuses:";
  for (const auto& [status, count] : all.statuses) out << " " << status << " " << count;
  out << (all.statuses.empty() ? " none\n" : "\n");
  for (const auto& note : score.notes) out << "note: " << note << "\n";
  turn_table(out, score);
  const std::vector<GroupScore> rows = breakdown_rows(score, by);
  if (rows.empty()) return out.str();
  const std::vector<std::string> columns = breakdown_metrics(score);
  out << "\n";
  std::snprintf(line, sizeof line, "%-40s %8s %7s", by == Breakdown::problem ? "problem" : "category",
                "problems", "samples");
  out << line;
  for (const auto& column : columns) {
    std::snprintf(line, sizeof line, " %15s", column.c_str());
    out << line;
  }
  out << "\n";
  for (const auto& row : rows) {
    std::snprintf(line, sizeof line, "%-40s %8d %7d", row.name.c_str(), row.problems, row.samples);
    out << line;
    for (const auto& column : columns) {
      const Estimate* estimate = row.find(column);
      std::string cell = estimate ? number(estimate->value) : "-";
      if (row.problems_unknown == row.problems && row.problems > 0 && column.rfind("pass@", 0) == 0)
        cell = "no GPU";
      std::snprintf(line, sizeof line, " %15s", cell.c_str());
      out << line;
    }
    out << "\n";
  }
  return out.str();
}

std::string score_csv(const Score& score, Breakdown by) {
  std::ostringstream out;
  out << "group,problems,samples";
  for (const auto& estimate : score.overall.metrics)
    out << "," << estimate.name << "," << estimate.name << "_low," << estimate.name << "_high";
  out << "\n";
  std::vector<GroupScore> rows = {score.overall};
  for (auto& row : breakdown_rows(score, by)) rows.push_back(std::move(row));
  for (const auto& row : rows) {
    std::string name = row.name;  // problem keys and categories are [a-z0-9_]; quote anyway
    std::string quoted = "\"";
    for (char ch : name) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    out << quoted << "\"," << row.problems << "," << row.samples;
    for (const auto& estimate : row.metrics) {
      auto cell = [](const std::optional<double>& value) {
        return value ? number(value, "%.6g") : std::string();
      };
      out << "," << cell(estimate.value) << "," << cell(estimate.low) << "," << cell(estimate.high);
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace pkb::score
