// Drawing the charts by hand: a few dozen elements each, so no library, and the page stays
// self-contained. y is a rate in [0, 1]; x is p (fast_p chart) or the turn (turn chart).
#include "src/leaderboard/svg_chart.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <utility>

#include "src/leaderboard/cells.h"
#include "src/leaderboard/escape.h"
#include "src/leaderboard/problem_map.h"

namespace pkb::leaderboard {
namespace {

constexpr double kWidth = 640, kPlotHeight = 320;  // the legend goes below, as tall as it needs
constexpr double kLeft = 50, kRight = 20, kTop = 20, kBottom = 40;
constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kPlotHeight - kTop - kBottom;
constexpr double kLegendFont = 12, kLegendLine = 15, kLegendGap = 4;
constexpr double kLegendX = kLeft, kLegendTextX = kLegendX + 18;
// Monospace legend text, 0.6 em a character (0.62 assumed): names longer than a line wrap.
const std::size_t kLegendChars = static_cast<std::size_t>((kWidth - kLegendTextX - 4) / (0.62 * kLegendFont));

std::string fixed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

// x in [x_min, x_max] and a rate in [0, 1] to canvas coordinates.
struct Axes {
  double x_min = 0, x_max = 1;
  std::string x(double value) const {
    return fixed(kLeft + kPlotW * (value - x_min) / (x_max - x_min));
  }
  std::string y(double value) const { return fixed(kTop + kPlotH * (1.0 - value)); }
};

// The <svg> opening, the plot area, gridlines at 0, 0.25, ... 1, the x tick labels and both titles.
void open_chart(std::ostringstream& svg, const Axes& axes,
                const std::vector<std::pair<double, std::string>>& x_ticks,
                const std::string& x_title, const std::string& y_title,
                const std::string& css_class, double height) {
  svg << "<svg class=\"" << css_class << "\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
      << kWidth << "\" height=\"" << fixed(height) << "\" viewBox=\"0 0 " << kWidth << " " << fixed(height)
      << "\" role=\"img\" aria-label=\"" << y_title << " against " << x_title << "\">\n"
      << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << kPlotW << "\" height=\""
      << kPlotH << "\" fill=\"#fafafa\" stroke=\"#999\"/>\n";
  for (double tick : {0.0, 0.25, 0.5, 0.75, 1.0})
    svg << "<line x1=\"" << kLeft << "\" x2=\"" << kLeft + kPlotW << "\" y1=\"" << axes.y(tick)
        << "\" y2=\"" << axes.y(tick) << "\" stroke=\"#ddd\"/><text x=\"" << kLeft - 6 << "\" y=\""
        << fixed(kTop + kPlotH * (1.0 - tick) + 4) << "\" text-anchor=\"end\" font-size=\"11\">"
        << value_text(tick) << "</text>\n";
  for (const auto& [at, label] : x_ticks)
    svg << "<text x=\"" << axes.x(at) << "\" y=\"" << kTop + kPlotH + 16
        << "\" text-anchor=\"middle\" font-size=\"11\">" << label << "</text>\n";
  svg << "<text x=\"" << kLeft + kPlotW / 2 << "\" y=\"" << kPlotHeight - 6
      << "\" text-anchor=\"middle\" font-size=\"12\">" << x_title << "</text>\n"
      << "<text x=\"14\" y=\"" << kTop + kPlotH / 2 << "\" transform=\"rotate(-90 14 "
      << kTop + kPlotH / 2 << ")\" text-anchor=\"middle\" font-size=\"12\">" << y_title
      << "</text>\n";
}

// The legend below the plot: one entry per line group, each a marker and its text wrapped to the
// chart's width, so that no name is cut. `y` is the next entry's top.
struct Legend {
  std::ostringstream items;
  double y = kPlotHeight + 2;

  void text(const std::string& raw) {
    const std::vector<std::string> lines = wrap_label(raw, kLegendChars);
    items << "<text x=\"" << kLegendTextX << "\" y=\"" << fixed(y + kLegendFont) << "\" font-size=\""
          << kLegendFont << "\" font-family=\"monospace\">";
    for (std::size_t line = 0; line < lines.size(); ++line)
      items << "<tspan x=\"" << kLegendTextX << "\" dy=\"" << (line == 0 ? 0 : kLegendLine) << "\">"
            << html_escape(lines[line]) << "</tspan>";
    items << "</text>\n";
    y += kLegendLine * static_cast<double>(lines.size()) + kLegendGap;
  }
  // A coloured square and `raw` (escaped here).
  void entry(const char* colour, const std::string& raw) {
    items << "<rect x=\"" << kLegendX << "\" y=\"" << fixed(y + 2) << "\" width=\"12\" height=\"12\" fill=\""
          << colour << "\"/>";
    text(raw);
  }
  // A short stroke and its meaning: how the turn chart tells its metrics apart.
  void stroke(const char* dash, const std::string& raw) {
    items << "<line x1=\"" << kLegendX << "\" x2=\"" << kLegendX + 14 << "\" y1=\"" << fixed(y + 8)
          << "\" y2=\"" << fixed(y + 8) << "\" stroke=\"#444\" stroke-width=\"2\" stroke-dasharray=\"" << dash
          << "\"/>";
    text(raw);
  }
  double height() const { return y + 4; }
};

}  // namespace

const char* series_colour(std::size_t index) {
  static const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                         "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
  return kColours[index % (sizeof kColours / sizeof kColours[0])];
}

std::string fast_p_chart(const Group& group, const std::vector<double>& ps) {
  Axes axes;
  axes.x_max = ps.empty() ? 1.0 : std::max(1.0, *std::max_element(ps.begin(), ps.end()));
  std::vector<std::pair<double, std::string>> ticks;
  for (double p : ps) ticks.emplace_back(p, score::format_p(p));
  std::ostringstream plot;
  Legend legend;
  for (std::size_t index = 0; index < group.entries.size(); ++index) {
    const Entry& entry = group.entries[index];
    const std::string name = html_escape(row_name(group, entry));
    std::string points, dots;
    for (double p : ps) {
      const score::Estimate* estimate = entry.score.overall.find(score::fast_name(p, 1));
      if (!estimate || !estimate->value) continue;
      const std::string xy = axes.x(p) + "," + axes.y(*estimate->value);
      points += (points.empty() ? "" : " ") + xy;
      dots += "<circle cx=\"" + axes.x(p) + "\" cy=\"" + axes.y(*estimate->value) +
              "\" r=\"3\" fill=\"" + series_colour(index) + "\"><title>" + name + ": fast_" +
              score::format_p(p) + "@1 = " + value_text(estimate->value) + "</title></circle>";
    }
    if (!points.empty())
      plot << "<polyline class=\"series\" fill=\"none\" stroke-width=\"2\" stroke=\""
           << series_colour(index) << "\" points=\"" << points << "\"/>" << dots << "\n";
    legend.entry(series_colour(index), row_name(group, entry) + (points.empty() ? " (no data)" : ""));
  }
  std::ostringstream svg;
  open_chart(svg, axes, ticks, "p (speedup threshold)", "fast_p@1", "fast-p-chart", legend.height());
  svg << plot.str() << legend.items.str() << "</svg>\n";
  return svg.str();
}

std::string turn_chart(const Group& group) {
  Axes axes;
  axes.x_min = 1;
  axes.x_max = std::max(2, group_turns(group));
  std::vector<std::pair<double, std::string>> ticks;
  for (int turn = 1; turn <= static_cast<int>(axes.x_max); ++turn)
    ticks.emplace_back(turn, std::to_string(turn));
  std::ostringstream plot;
  Legend legend;
  const std::string fast = score::fast_name(1, 1);
  for (std::size_t index = 0; index < group.entries.size(); ++index) {
    const Entry& entry = group.entries[index];
    const std::string name = html_escape(row_name(group, entry));
    for (const auto& [metric, dash] :
         {std::make_pair(std::string("pass@1"), "none"), std::make_pair(fast, "6 4")}) {
      std::string points, dots;
      for (const auto& row : entry.score.per_turn) {
        const score::Estimate* estimate = row.group.find(metric);
        if (!estimate || !estimate->value) continue;
        const std::string x = axes.x(row.turn), y = axes.y(*estimate->value);
        points += (points.empty() ? "" : " ") + x + "," + y;
        dots += "<circle cx=\"" + x + "\" cy=\"" + y + "\" r=\"3\" fill=\"" + series_colour(index) +
                "\"><title>" + name + ": " + metric + " after turn " + std::to_string(row.turn) +
                " = " + value_text(estimate->value) + "</title></circle>";
      }
      if (points.empty()) continue;
      plot << "<polyline class=\"turn-series\" data-metric=\"" << metric
           << "\" fill=\"none\" stroke-width=\"2\" stroke-dasharray=\"" << dash << "\" stroke=\""
           << series_colour(index) << "\" points=\"" << points << "\"/>" << dots << "\n";
    }
    legend.entry(series_colour(index), row_name(group, entry));
  }
  legend.stroke("none", "pass@1");
  legend.stroke("6 4", fast);
  std::ostringstream svg;
  open_chart(svg, axes, ticks, "turn (answers so far)", "pass@1, fast_1@1", "turn-chart", legend.height());
  svg << plot.str() << legend.items.str() << "</svg>\n";
  return svg.str();
}

}  // namespace pkb::leaderboard
