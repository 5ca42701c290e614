// index.html: the same content as leaderboard.md plus the fast_p chart, in one self-contained file
// (inline CSS and SVG, no scripts, fonts or external references). Every string from results is
// escaped with html_escape.
#include <sstream>

#include "src/leaderboard/cells.h"
#include "src/leaderboard/escape.h"
#include "src/leaderboard/leaderboard.h"
#include "src/score/score_report.h"
#include "src/leaderboard/problem_map.h"
#include "src/leaderboard/ranking_text.h"
#include "src/leaderboard/svg_chart.h"

namespace pkb::leaderboard {
namespace {

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:24px auto;padding:0 24px;color:#222;max-width:1200px}"
    "table{border-collapse:collapse;margin:8px 0 20px;max-width:100%}"
    "th,td{border:1px solid #ccc;padding:4px 6px;text-align:left;font-size:13px}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    "td.name{overflow-wrap:anywhere;min-width:9em}.nw{white-space:nowrap}tr.unranked td{color:#666}"
    "th{background:#f0f0f0}a{color:#0645ad;text-decoration:none}"
    "svg{max-width:100%;height:auto;display:block}"
    "h2{border-bottom:2px solid #444;margin-top:36px}.note{color:#555;font-size:13px}";

std::string linked(const std::string& text, const std::string& anchor) {
  return "<a href=\"#" + anchor + "\">" + html_escape(text) + "</a>";
}

// "bf16, dims test, 1 turn, 2026-11-20" with each part kept on one line.
std::string unbroken_parts(const std::string& text) {
  std::string html;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find(", ", start);
    if (end == std::string::npos) end = text.size();
    html += (html.empty() ? "" : ", ") + std::string("<span class=\"nw\">") +
            html_escape(text.substr(start, end - start)) + "</span>";
    start = end + 2;
  }
  return html;
}

// "40/87", and for a row that lacks problems, which.
std::string coverage_cell(const Group& group, const Entry& entry) {
  std::string text = std::to_string(entry.coverage.judged.size()) + "/" + std::to_string(group.problems.size());
  if (entry.ranked) return text;
  return text + "<br><span class=\"note\">lacks " + html_escape(score::problems_text(entry.coverage.lacking)) +
         "</span>";
}

void main_table(std::ostringstream& out, const Group& group) {
  const std::vector<std::string> metrics = table_metrics(group);
  out << "<p class=\"ranks-on\">" << ranking_sentence(group, html_escape) << "</p>\n";
  out << "<table class=\"board\"><thead><tr><th>rank</th><th>model</th><th>run</th><th>problems</th>"
         "<th>samples</th>";
  for (const auto& metric : metrics) out << "<th>" << html_escape(metric_label(metric)) << "</th>";
  out << "</tr></thead><tbody>\n";
  for (std::size_t rank = 0; rank < group.entries.size(); ++rank) {
    const Entry& entry = group.entries[rank];
    out << "<tr" << (entry.ranked ? "" : " class=\"unranked\"") << "><td class=\"num\">"
        << (entry.ranked ? std::to_string(rank + 1) : std::string("unranked")) << "</td><td class=\"name\">"
        << html_escape(entry.model) << "</td><td>" << unbroken_parts(entry.run) << "</td><td class=\"num\">"
        << coverage_cell(group, entry) << "</td><td class=\"num\">" << entry.score.overall.samples << "</td>";
    for (std::size_t index = 0; index < metrics.size(); ++index)
      out << "<td class=\"num\">"
          << linked(cell_text(entry.score.overall, metrics[index]), entry.anchor + "-m" + std::to_string(index))
          << "</td>";
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
}

// Only where some entry of the group has refinement turns: the values after every turn, then the
// same as a chart.
void turns_table(std::ostringstream& out, const Group& group) {
  if (group_turns(group) <= 1) return;
  const std::string fast = score::fast_name(1, 1);
  out << "<h3>By turn (turn t scores each sample's first t answers)</h3>"
         "<table class=\"turns\"><thead><tr><th>model</th><th>turns</th><th>pass@1 by turn</th><th>"
      << html_escape(fast) << " by turn</th></tr></thead><tbody>\n";
  for (const auto& entry : group.entries)
    out << "<tr><td class=\"name\">" << html_escape(row_name(group, entry)) << "</td><td class=\"num\">" << entry.score.turns
        << "</td><td class=\"num\">" << html_escape(turn_series_text(entry.score, "pass@1"))
        << "</td><td class=\"num\">" << html_escape(turn_series_text(entry.score, fast))
        << "</td></tr>\n";
  out << "</tbody></table>\n" << turn_chart(group);
}

void category_table(std::ostringstream& out, const Group& group) {
  out << "<h3>" << category_heading(group_timed(group))
      << "</h3><table class=\"categories\"><thead><tr><th>model</th>";
  for (const auto& category : group.categories) out << "<th>" << html_escape(category) << "</th>";
  out << "</tr></thead><tbody>\n";
  for (const auto& entry : group.entries) {
    out << "<tr><td class=\"name\">" << html_escape(row_name(group, entry)) << "</td>";
    for (const auto& category : group.categories) {
      const score::GroupScore* found = nullptr;
      for (const auto& scored : entry.score.categories)
        if (scored.name == category) found = &scored;
      out << "<td class=\"num\">"
          << (found ? linked(category_text(*found, group_timed(group)), entry.anchor) : std::string("-"))
          << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
}

void problems_table(std::ostringstream& out, const Group& group, const Entry& entry) {
  const std::vector<std::string> metrics = table_metrics(group);
  out << "<h4 id=\"" << entry.anchor << "\">" << html_escape(entry.model) << " (" << html_escape(group.hardware)
      << ", W " << html_escape(group.world) << ", " << html_escape(entry.run) << "): problems</h4>"
      << "<p class=\"note\">From:";
  for (const auto& dir : entry.dirs) out << " " << html_escape(dir);
  out << ". " << html_escape(listed_problems_sentence(entry)) << "</p><table class=\"problems\"><thead><tr>"
      << "<th>problem</th><th>category</th><th>n</th><th>correct</th>";
  for (std::size_t index = 0; index < metrics.size(); ++index)
    out << "<th id=\"" << entry.anchor << "-m" << index << "\">" << html_escape(metric_label(metrics[index]))
        << "</th>";
  out << "</tr></thead><tbody>\n";
  for (const auto& tally : entry.score.problems) {
    if (tally.statuses.empty()) continue;  // no sample: the sentence above counts them
    const score::GroupScore row = score::problem_group(entry.score, tally);
    out << "<tr><td>" << html_escape(tally.problem) << "</td><td>" << html_escape(tally.category)
        << "</td><td class=\"num\">" << tally.n << "</td><td class=\"num\">"
        << correct_text(tally) << "</td>";
    for (const auto& metric : metrics) out << "<td class=\"num\">" << cell_text(row, metric) << "</td>";
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
}

}  // namespace

std::string render_html(const Leaderboard& board) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
         "<title>pkb leaderboard</title><style>"
      << kStyle << "</style></head><body>\n<h1>pkb leaderboard</h1>\n"
      << "<p class=\"note\">One table per (hardware, W): results on different hardware or world sizes are "
         "never ranked together. Values are means over problems of the unbiased estimators with 95% "
         "bootstrap intervals over problems; fast_p counts correct samples strictly faster than p times "
         "the baseline, timed on real (not emulated) GPUs. Each cell links to the problems behind it. "
      << html_escape(fair_ranking_rule()) << "</p>\n";
  for (std::size_t g = 0; g < board.groups.size(); ++g) {
    const Group& group = board.groups[g];
    out << "<section class=\"group\" id=\"g" << g << "\"><h2>" << html_escape(group.hardware) << ", W "
        << html_escape(group.world) << "</h2>\n";
    if (const std::string note = simulated_note(group); !note.empty())
      out << "<p class=\"note\">" << html_escape(note) << "</p>\n";
    main_table(out, group);
    out << "<h3>Models x problems</h3>\n<p class=\"note\">" << html_escape(map_sentence(group)) << "</p>\n"
        << problem_map(group, "g" + std::to_string(g));
    if (group_timed(group)) out << "<h3>fast_p@1 against p</h3>\n" << fast_p_chart(group, board.chart_ps);
    turns_table(out, group);
    category_table(out, group);
    for (const auto& entry : group.entries) problems_table(out, group, entry);
    out << "</section>\n";
  }
  out << "</body></html>\n";
  return out.str();
}

}  // namespace pkb::leaderboard
