// Drawing the chart by hand: a few dozen elements, so no library, and the page stays
// self-contained. y is fast_p@1 in [0, 1]; x is p from 0 to the largest p scored.
#include "src/leaderboard/svg_chart.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "src/leaderboard/cells.h"
#include "src/leaderboard/escape.h"

namespace pkb::leaderboard {
namespace {

constexpr double kWidth = 640, kHeight = 320;
constexpr double kLeft = 50, kRight = 190, kTop = 20, kBottom = 40;  // legend on the right

std::string fixed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

}  // namespace

const char* series_colour(std::size_t index) {
  static const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                         "#9467bd", "#8c564b", "#e377c2", "#17becf"};
  return kColours[index % (sizeof kColours / sizeof kColours[0])];
}

std::string fast_p_chart(const Group& group, const std::vector<double>& ps) {
  const double max_p = ps.empty() ? 1.0 : std::max(1.0, *std::max_element(ps.begin(), ps.end()));
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto x_of = [&](double p) { return kLeft + plot_w * p / max_p; };
  auto y_of = [&](double value) { return kTop + plot_h * (1.0 - value); };
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" viewBox=\"0 0 " << kWidth << " " << kHeight << "\" role=\"img\" aria-label=\"fast_p@1 against p\">\n"
      << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << plot_w << "\" height=\"" << plot_h
      << "\" fill=\"#fafafa\" stroke=\"#999\"/>\n";
  for (double tick : {0.0, 0.25, 0.5, 0.75, 1.0})
    svg << "<line x1=\"" << kLeft << "\" x2=\"" << kLeft + plot_w << "\" y1=\"" << fixed(y_of(tick))
        << "\" y2=\"" << fixed(y_of(tick)) << "\" stroke=\"#ddd\"/><text x=\"" << kLeft - 6 << "\" y=\""
        << fixed(y_of(tick) + 4) << "\" text-anchor=\"end\" font-size=\"11\">" << value_text(tick) << "</text>\n";
  for (double p : ps)
    svg << "<text x=\"" << fixed(x_of(p)) << "\" y=\"" << kTop + plot_h + 16
        << "\" text-anchor=\"middle\" font-size=\"11\">" << score::format_p(p) << "</text>\n";
  svg << "<text x=\"" << kLeft + plot_w / 2 << "\" y=\"" << kHeight - 6
      << "\" text-anchor=\"middle\" font-size=\"12\">p (speedup threshold)</text>\n"
      << "<text x=\"14\" y=\"" << kTop + plot_h / 2 << "\" transform=\"rotate(-90 14 " << kTop + plot_h / 2
      << ")\" text-anchor=\"middle\" font-size=\"12\">fast_p@1</text>\n";
  for (std::size_t index = 0; index < group.entries.size(); ++index) {
    const Entry& entry = group.entries[index];
    const std::string name = html_escape(entry.model);
    std::string points, dots;
    for (double p : ps) {
      const score::Estimate* estimate = entry.score.overall.find(score::fast_name(p, 1));
      if (!estimate || !estimate->value) continue;
      const std::string xy = fixed(x_of(p)) + "," + fixed(y_of(*estimate->value));
      points += (points.empty() ? "" : " ") + xy;
      dots += "<circle cx=\"" + fixed(x_of(p)) + "\" cy=\"" + fixed(y_of(*estimate->value)) +
              "\" r=\"3\" fill=\"" + series_colour(index) + "\"><title>" + name + ": fast_" +
              score::format_p(p) + "@1 = " + value_text(estimate->value) + "</title></circle>";
    }
    if (!points.empty())
      svg << "<polyline class=\"series\" fill=\"none\" stroke-width=\"2\" stroke=\"" << series_colour(index)
          << "\" points=\"" << points << "\"/>" << dots << "\n";
    const double legend_y = kTop + 14 + 18 * static_cast<double>(index);
    svg << "<rect x=\"" << kWidth - kRight + 12 << "\" y=\"" << legend_y - 9 << "\" width=\"12\" height=\"12\" fill=\""
        << series_colour(index) << "\"/><text x=\"" << kWidth - kRight + 30 << "\" y=\"" << legend_y + 1
        << "\" font-size=\"12\">" << name << (points.empty() ? " (no data)" : "") << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace pkb::leaderboard
