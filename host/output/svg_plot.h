// A small self-contained SVG line-chart writer for reports (no plotting library): a grid of
// panels, each with its own axes ("nice" tick values), tick labels, axis titles and one line per
// series; one legend for the whole chart (series are matched across panels by label) and a title.
//
//   LineChart chart;
//   chart.title = "Suspension kinematics";
//   PlotPanel& p = chart.panels.emplace_back();
//   p.title = "Camber"; p.x_label = "wheel travel [mm]"; p.y_label = "camber [deg]";
//   p.series.push_back({"FL", "#1f77b4", false, xs, ys});
//   write_svg_line_chart(out, chart);
//
// Every series is drawn as exactly one <path> element (non-finite points break the line), so the
// file's structure is predictable for tests; axes, ticks and grid lines are <line> elements.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace fleetdyn {

struct PlotSeries {
  std::string label;         // legend text; series with the same label share one legend entry
  std::string colour;        // any SVG colour, e.g. "#1f77b4"
  bool dashed = false;       // dashed line (tells overlapping curves apart)
  std::vector<double> x, y;  // same length; non-finite points are skipped (the line breaks)
};

struct PlotPanel {
  std::string title;
  std::string x_label, y_label;  // axis titles, with units, e.g. "wheel travel [mm]"
  std::vector<PlotSeries> series;
};

struct LineChart {
  std::string title;
  std::vector<PlotPanel> panels;  // laid out row by row
  int columns = 2;
  double panel_width = 480.0, panel_height = 330.0;  // [px] one grid cell, margins included
};

// Tick values that cover [lo, hi] with a step of 1, 2 or 5 times a power of ten, about
// `target_ticks` of them (4 to 10 for a target of 6); the first is <= lo and the last >= hi (they
// are the axis limits). A degenerate range (hi ~ lo, or non-finite) is widened around its value.
std::vector<double> nice_ticks(double lo, double hi, int target_ticks = 6);

// A tick label with as many decimals as the tick step needs ("0.05", "-120", "0"; never "-0").
std::string format_tick(double value, double step);

// Text made safe inside XML/HTML text and attribute values (& < > " ').
std::string escape_xml(const std::string& s);

// Writes the whole SVG document (UTF-8) to `out`.
void write_svg_line_chart(std::ostream& out, const LineChart& chart);

}  // namespace fleetdyn
