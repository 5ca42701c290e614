// Drawing the models x problems map (problem_map.h). Text is monospace so that its width is known
// here (0.6 em a character in DejaVu Sans Mono, 0.62 assumed): labels wrap and the legend flows
// onto more rows instead of being cut; the browser test measures every text against its SVG.
#include "src/leaderboard/problem_map.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "src/leaderboard/escape.h"

namespace pkb::leaderboard {
namespace {

constexpr double kWidth = 1150;       // inside the page's 1200 px column
constexpr double kFont = 11;          // labels, in px
constexpr double kCharW = 0.62 * kFont;
constexpr double kLineH = 13;
constexpr double kMaxLabelW = 300;    // longer model names wrap
constexpr double kCategoryGap = 6;
constexpr double kMaxCellW = 18, kMinCellW = 5;
constexpr double kPad = 4;

struct Swatch {
  const char* label;
  const char* colour;
};

// Best first: the status a cell shows is the first of these any of its records has.
const std::vector<Swatch>& statuses() {
  static const std::vector<Swatch> list = {
      {"correct", "#31a354"},        {"incorrect", "#fd8d3c"},    {"runtime_error", "#d62728"},
      {"timeout", "#9467bd"},        {"plan_error", "#8c564b"},   {"compile_error", "#636363"},
      {"format_error", "#e377c2"},   {"not executed", "#9ecae1"}, {"not run", "#ffffff"}};
  return list;
}

// Correct cells of a timed table, by best trusted speedup.
const std::vector<Swatch>& speed_shades() {
  static const std::vector<Swatch> list = {{"correct, not timed", "#e5f5e0"},
                                           {"correct, speedup < 1", "#a1d99b"},
                                           {"correct, 1-1.5x", "#41ab5d"},
                                           {"correct, 1.5-2x", "#1b7837"},
                                           {"correct, >= 2x", "#00441b"}};
  return list;
}

std::string number(double value, const char* format = "%.1f") {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

const char* colour_of(const std::string& status) {
  for (const auto& swatch : statuses())
    if (status == swatch.label) return swatch.colour;
  return "#ffffff";
}

std::optional<double> best_speedup(const score::ProblemTally* tally) {
  if (!tally || tally->speedups.empty()) return std::nullopt;
  return *std::max_element(tally->speedups.begin(), tally->speedups.end());
}

const char* cell_colour(const std::string& status, const score::ProblemTally* tally, bool timed) {
  if (status != "correct" || !timed) return colour_of(status);
  const std::optional<double> speedup = best_speedup(tally);
  const auto& shades = speed_shades();
  if (!speedup) return shades[0].colour;
  if (*speedup < 1) return shades[1].colour;
  if (*speedup < 1.5) return shades[2].colour;
  if (*speedup < 2) return shades[3].colour;
  return shades[4].colour;
}

std::string cell_title(const std::string& problem, const std::string& category, const std::string& status,
                       const score::ProblemTally* tally, bool timed) {
  std::string text = problem + " (" + category + "): " + status;
  if (tally && !tally->statuses.empty()) {
    text += ", " + std::to_string(tally->c) + " of " + std::to_string(tally->n) + " samples correct";
    if (timed) {
      const std::optional<double> speedup = best_speedup(tally);
      text += speedup ? ", best speedup " + number(*speedup, "%.2f") + "x" : std::string(", speedup -");
    } else {
      text += ", speedup not timed";
    }
  }
  return html_escape(text);
}

const score::ProblemTally* find_tally(const Entry& entry, const std::string& problem) {
  for (const auto& tally : entry.score.problems)
    if (tally.problem == problem) return &tally;
  return nullptr;
}

// `lines` as one <text>, a <tspan> a line, the first baseline at y.
void label_text(std::ostringstream& svg, double x, double y, const std::vector<std::string>& lines,
                const char* extra = "") {
  svg << "<text x=\"" << number(x) << "\" y=\"" << number(y) << "\" font-size=\"" << kFont
      << "\" font-family=\"monospace\"" << extra << ">";
  for (std::size_t line = 0; line < lines.size(); ++line)
    svg << "<tspan x=\"" << number(x) << "\" dy=\"" << (line == 0 ? 0 : kLineH) << "\">"
        << html_escape(lines[line]) << "</tspan>";
  svg << "</text>\n";
}

// The legend: swatches flowing left to right, wrapping onto a new row at the map's width. Returns
// the height used.
double legend(std::ostringstream& svg, double top, const std::vector<Swatch>& swatches) {
  double x = kPad, y = top;
  for (const auto& swatch : swatches) {
    const double width = 14 + 4 + kCharW * static_cast<double>(std::string(swatch.label).size()) + 14;
    if (x + width > kWidth - kPad && x > kPad) x = kPad, y += kLineH + 6;
    svg << "<rect x=\"" << number(x) << "\" y=\"" << number(y) << "\" width=\"12\" height=\"12\" fill=\""
        << swatch.colour << "\" stroke=\"#999\"/>";
    label_text(svg, x + 16, y + 10, {swatch.label});
    x += width;
  }
  return y + kLineH + 6 - top;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> map_columns(const Group& group) {
  std::map<std::string, std::string> category_of;  // problem -> category
  for (const auto& entry : group.entries)
    for (const auto& tally : entry.score.problems) category_of.emplace(tally.problem, tally.category);
  std::vector<std::pair<std::string, std::string>> columns;
  for (const auto& [problem, category] : category_of) columns.emplace_back(category, problem);
  std::sort(columns.begin(), columns.end());
  return columns;
}

std::string best_status(const score::ProblemTally* tally) {
  if (!tally) return "not run";
  for (const auto& swatch : statuses())
    if (tally->statuses.count(swatch.label)) return swatch.label;
  if (tally->statuses.count("compiled") || tally->statuses.count("generated")) return "not executed";
  return "not run";  // none, or only api_error: no answer was judged
}

std::vector<std::string> wrap_label(const std::string& text, std::size_t max_chars) {
  std::vector<std::string> lines;
  std::string rest = text;
  max_chars = std::max<std::size_t>(max_chars, 4);
  while (rest.size() > max_chars) {
    std::size_t cut = max_chars;
    for (std::size_t at = max_chars; at > max_chars / 2; --at)
      if (std::string(":-_/. ").find(rest[at - 1]) != std::string::npos) {
        cut = at;
        break;
      }
    lines.push_back(rest.substr(0, cut));
    rest = rest.substr(cut);
  }
  lines.push_back(rest);
  return lines;
}

std::string problem_map(const Group& group, const std::string& id) {
  const bool timed = group_timed(group);
  const auto columns = map_columns(group);
  std::size_t categories = 0;
  std::size_t longest_category = 0;
  for (std::size_t index = 0; index < columns.size(); ++index) {
    if (index == 0 || columns[index].first != columns[index - 1].first) ++categories;
    longest_category = std::max(longest_category, columns[index].first.size());
  }
  // Labels: as wide as the longest name needs, up to kMaxLabelW; longer ones wrap.
  std::size_t longest = 4;
  for (const auto& entry : group.entries) longest = std::max(longest, row_name(group, entry).size());
  const double label_w = std::min(kMaxLabelW, kCharW * static_cast<double>(longest));
  const std::size_t label_chars = static_cast<std::size_t>(label_w / kCharW);
  std::vector<std::vector<std::string>> labels;
  std::size_t lines = 1;
  for (const auto& entry : group.entries) {
    labels.push_back(wrap_label(row_name(group, entry), label_chars));
    lines = std::max(lines, labels.back().size());
  }
  const double row_h = std::max(14.0, kLineH * static_cast<double>(lines) + 3);
  const double left = kPad + label_w + 8;
  const double gaps = kCategoryGap * static_cast<double>(categories > 0 ? categories - 1 : 0);
  const double cell_w = columns.empty()
                            ? kMaxCellW
                            : std::clamp(std::floor((kWidth - kPad - left - gaps) / static_cast<double>(columns.size())),
                                         kMinCellW, kMaxCellW);
  const double header_h = kCharW * static_cast<double>(longest_category) + 10;
  const double top = kPad + header_h;
  const double rows_h = row_h * static_cast<double>(group.entries.size());

  std::ostringstream body;
  // Category names, rotated, above their columns; each column's x.
  std::vector<double> xs;
  double x = left;
  for (std::size_t index = 0; index < columns.size(); ++index) {
    if (index > 0 && columns[index].first != columns[index - 1].first) x += kCategoryGap;
    xs.push_back(x);
    x += cell_w;
  }
  for (std::size_t first = 0; first < columns.size();) {
    std::size_t end = first;
    while (end < columns.size() && columns[end].first == columns[first].first) ++end;
    const double centre = (xs[first] + xs[end - 1] + cell_w) / 2 + kFont / 3;
    const double bottom = top - 4;
    body << "<text class=\"category\" x=\"" << number(centre) << "\" y=\"" << number(bottom)
         << "\" transform=\"rotate(-90 " << number(centre) << " " << number(bottom) << ")\" font-size=\""
         << kFont << "\" font-family=\"monospace\">" << html_escape(columns[first].first) << "</text>\n";
    first = end;
  }
  for (std::size_t row = 0; row < group.entries.size(); ++row) {
    const Entry& entry = group.entries[row];
    const double y = top + row_h * static_cast<double>(row);
    const double text_y = y + (row_h - kLineH * static_cast<double>(labels[row].size())) / 2 + kFont - 1;
    label_text(body, kPad, text_y, labels[row], entry.ranked ? "" : " fill=\"#777\"");
    body << "<g class=\"map-row\">";
    for (std::size_t index = 0; index < columns.size(); ++index) {
      const auto& [category, problem] = columns[index];
      const score::ProblemTally* tally = find_tally(entry, problem);
      if (tally && tally->statuses.empty()) tally = nullptr;  // listed by the run, never sampled
      const std::string status = best_status(tally);
      body << "<rect class=\"cell\" data-status=\"" << status << "\" x=\"" << number(xs[index]) << "\" y=\""
           << number(y + 1) << "\" width=\"" << number(cell_w - 1) << "\" height=\"" << number(row_h - 2)
           << "\" fill=\"" << cell_colour(status, tally, timed) << "\" stroke=\"#ddd\" stroke-width=\"0.5\">"
           << "<title>" << cell_title(problem, category, status, tally, timed) << "</title></rect>";
    }
    body << "</g>\n";
  }
  std::vector<Swatch> swatches;
  for (const auto& swatch : statuses()) {
    if (timed && std::string(swatch.label) == "correct") {
      swatches.insert(swatches.end(), speed_shades().begin(), speed_shades().end());
      continue;
    }
    swatches.push_back(swatch);
  }
  const double legend_h = legend(body, top + rows_h + 12, swatches);
  const double height = top + rows_h + 12 + legend_h + kPad;

  std::ostringstream svg;
  // Every map has the id the issue tracker and readers search for ("problem-map"); data-table tells
  // the tables apart (browsers and querySelectorAll accept a repeated id).
  svg << "<svg class=\"problem-map\" id=\"problem-map\" data-table=\"" << id << "\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
      << kWidth << "\" height=\"" << number(height) << "\" viewBox=\"0 0 " << kWidth << " " << number(height)
      << "\" role=\"img\" aria-label=\"models by problems: the best status of each model's samples\">\n"
      << body.str() << "</svg>\n";
  return svg.str();
}

}  // namespace pkb::leaderboard
