#include "host/output/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

namespace fleetdyn {

namespace {

// 1, 2, 5 or 10 times a power of ten nearest x > 0 (Heckbert, "Nice numbers for graph labels").
double nice_number(double x) {
  const double exponent = std::floor(std::log10(x));
  const double fraction = x / std::pow(10.0, exponent);
  const double nice = fraction < 1.5 ? 1.0 : fraction < 3.0 ? 2.0 : fraction < 7.0 ? 5.0 : 10.0;
  return nice * std::pow(10.0, exponent);
}

std::string px(double v) {  // SVG coordinates: 0.01 px is plenty
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// Finite data range of the panel along x (which = 0) or y (which = 1); NaN when there is none.
std::pair<double, double> data_range(const PlotPanel& panel, int which) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const PlotSeries& s : panel.series) {
    const std::vector<double>& v = which == 0 ? s.x : s.y;
    const size_t n = std::min(s.x.size(), s.y.size());
    for (size_t i = 0; i < n; ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      lo = std::min(lo, v[i]);
      hi = std::max(hi, v[i]);
    }
  }
  if (lo > hi) return {std::nan(""), std::nan("")};
  return {lo, hi};
}

struct LegendEntry {
  std::string label, colour;
  bool dashed;
};

std::vector<LegendEntry> legend_entries(const LineChart& chart) {
  std::vector<LegendEntry> entries;
  for (const PlotPanel& p : chart.panels) {
    for (const PlotSeries& s : p.series) {
      const bool seen = std::any_of(entries.begin(), entries.end(),
                                    [&](const LegendEntry& e) { return e.label == s.label; });
      if (!seen) entries.push_back({s.label, s.colour, s.dashed});
    }
  }
  return entries;
}

std::string line_style(const std::string& colour, bool dashed) {
  return "fill=\"none\" stroke=\"" + escape_xml(colour) + "\" stroke-width=\"1.8\"" +
         (dashed ? " stroke-dasharray=\"7 4\"" : "");
}

constexpr double kHeader = 76.0;  // title and legend
constexpr double kOuter = 10.0;   // page margin

void write_panel(std::ostream& out, const PlotPanel& panel, double cx, double cy, double w, double h) {
  // Plot area inside the cell: room for the title above, tick labels and axis titles left and below.
  const double left = cx + 78.0, right = cx + w - 20.0, top = cy + 34.0, bottom = cy + h - 52.0;
  const auto xr = data_range(panel, 0), yr = data_range(panel, 1);
  const std::vector<double> xt = nice_ticks(xr.first, xr.second), yt = nice_ticks(yr.first, yr.second);
  const double x0 = xt.front(), x1 = xt.back(), y0 = yt.front(), y1 = yt.back();
  auto sx = [&](double x) { return left + (x - x0) / (x1 - x0) * (right - left); };
  auto sy = [&](double y) { return bottom - (y - y0) / (y1 - y0) * (bottom - top); };

  out << "<g class=\"panel\">\n";
  out << "<text x=\"" << px(0.5 * (left + right)) << "\" y=\"" << px(cy + 20.0)
      << "\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">" << escape_xml(panel.title) << "</text>\n";
  // Grid and tick labels.
  const double xstep = xt.size() > 1 ? xt[1] - xt[0] : 1.0, ystep = yt.size() > 1 ? yt[1] - yt[0] : 1.0;
  for (double x : xt) {
    out << "<line x1=\"" << px(sx(x)) << "\" y1=\"" << px(top) << "\" x2=\"" << px(sx(x)) << "\" y2=\"" << px(bottom)
        << "\" stroke=\"#dddddd\"/>\n";
    out << "<text x=\"" << px(sx(x)) << "\" y=\"" << px(bottom + 16.0) << "\" text-anchor=\"middle\">"
        << format_tick(x, xstep) << "</text>\n";
  }
  for (double y : yt) {
    out << "<line x1=\"" << px(left) << "\" y1=\"" << px(sy(y)) << "\" x2=\"" << px(right) << "\" y2=\"" << px(sy(y))
        << "\" stroke=\"#dddddd\"/>\n";
    out << "<text x=\"" << px(left - 6.0) << "\" y=\"" << px(sy(y) + 4.0) << "\" text-anchor=\"end\">"
        << format_tick(y, ystep) << "</text>\n";
  }
  out << "<rect x=\"" << px(left) << "\" y=\"" << px(top) << "\" width=\"" << px(right - left) << "\" height=\""
      << px(bottom - top) << "\" fill=\"none\" stroke=\"#000000\"/>\n";
  // Axis titles.
  out << "<text x=\"" << px(0.5 * (left + right)) << "\" y=\"" << px(bottom + 38.0) << "\" text-anchor=\"middle\">"
      << escape_xml(panel.x_label) << "</text>\n";
  const double ymid = 0.5 * (top + bottom);
  out << "<text x=\"" << px(cx + 18.0) << "\" y=\"" << px(ymid) << "\" text-anchor=\"middle\" transform=\"rotate(-90 "
      << px(cx + 18.0) << " " << px(ymid) << ")\">" << escape_xml(panel.y_label) << "</text>\n";
  // One path per series; a non-finite point starts a new sub-path.
  for (const PlotSeries& s : panel.series) {
    std::string d;
    bool pen_down = false;
    const size_t n = std::min(s.x.size(), s.y.size());
    for (size_t i = 0; i < n; ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) {
        pen_down = false;
        continue;
      }
      d += (pen_down ? " L" : (d.empty() ? "M" : " M")) + px(sx(s.x[i])) + " " + px(sy(s.y[i]));
      pen_down = true;
    }
    out << "<path data-series=\"" << escape_xml(s.label) << "\" d=\"" << d << "\" " << line_style(s.colour, s.dashed) << "/>\n";
  }
  out << "</g>\n";
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int target_ticks) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0.0, hi = 1.0;
  if (lo > hi) std::swap(lo, hi);
  const double scale = std::max(std::fabs(lo), std::fabs(hi));
  if (scale == 0.0) {
    lo = -1.0, hi = 1.0;
  } else if (hi - lo <= 1e-9 * scale) {  // a constant: show it in the middle of a small range
    const double mid = 0.5 * (lo + hi);
    lo = mid - 0.1 * scale, hi = mid + 0.1 * scale;
  }
  target_ticks = std::max(target_ticks, 2);
  const double step = nice_number((hi - lo) / (target_ticks - 1));  // tight: the axis hugs the data
  // Integer multiples of the step (no accumulated round-off); a tolerance keeps a limit that is
  // a multiple already from growing by one step.
  const double first = std::floor(lo / step + 1e-9), last = std::max(std::ceil(hi / step - 1e-9), first + 1.0);
  std::vector<double> ticks;
  for (double i = first; i <= last + 0.5; i += 1.0) ticks.push_back(i * step);
  return ticks;
}

std::string format_tick(double value, double step) {
  if (std::fabs(value) < std::fabs(step) * 1e-6) value = 0.0;  // no "-0" or "1e-17"
  const int decimals = step >= 1.0 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  char buf[64];
  if (decimals > 6 || std::fabs(value) >= 1e7) {
    std::snprintf(buf, sizeof buf, "%.6g", value);
  } else {
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  }
  return buf;
}

void write_svg_line_chart(std::ostream& out, const LineChart& chart) {
  const int columns = std::max(chart.columns, 1);
  const int rows = (static_cast<int>(chart.panels.size()) + columns - 1) / columns;
  const double width = 2.0 * kOuter + columns * chart.panel_width;
  const double height = kHeader + rows * chart.panel_height + kOuter;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(width) << "\" height=\"" << px(height) << "\" viewBox=\"0 0 "
      << px(width) << " " << px(height) << "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
  out << "<rect x=\"0\" y=\"0\" width=\"" << px(width) << "\" height=\"" << px(height) << "\" fill=\"#ffffff\"/>\n";
  out << "<text x=\"" << px(0.5 * width) << "\" y=\"26\" text-anchor=\"middle\" font-size=\"17\" font-weight=\"bold\">"
      << escape_xml(chart.title) << "</text>\n";

  // Legend: one centred row under the title (about 7 px per character of label).
  const std::vector<LegendEntry> legend = legend_entries(chart);
  std::vector<double> entry_width;
  double total = 0.0;
  for (const LegendEntry& e : legend) {
    entry_width.push_back(34.0 + 7.0 * static_cast<double>(e.label.size()) + 22.0);
    total += entry_width.back();
  }
  double x = 0.5 * (width - total);
  const double ly = 52.0;
  out << "<g class=\"legend\">\n";
  for (size_t i = 0; i < legend.size(); ++i) {
    out << "<line x1=\"" << px(x) << "\" y1=\"" << px(ly) << "\" x2=\"" << px(x + 28.0) << "\" y2=\"" << px(ly) << "\" "
        << line_style(legend[i].colour, legend[i].dashed) << "/>\n";
    out << "<text x=\"" << px(x + 34.0) << "\" y=\"" << px(ly + 4.0) << "\">" << escape_xml(legend[i].label) << "</text>\n";
    x += entry_width[i];
  }
  out << "</g>\n";

  for (size_t p = 0; p < chart.panels.size(); ++p) {
    const double cx = kOuter + static_cast<double>(p % columns) * chart.panel_width;
    const double cy = kHeader + static_cast<double>(p / columns) * chart.panel_height;
    write_panel(out, chart.panels[p], cx, cy, chart.panel_width, chart.panel_height);
  }
  out << "</svg>\n";
}

std::string escape_xml(const std::string& s) {
  std::string r;
  r.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': r += "&amp;"; break;
      case '<': r += "&lt;"; break;
      case '>': r += "&gt;"; break;
      case '"': r += "&quot;"; break;
      case '\'': r += "&#39;"; break;
      default: r += c;
    }
  }
  return r;
}

}  // namespace fleetdyn
