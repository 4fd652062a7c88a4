// A line plot as a self-contained SVG file (no fonts or scripts from outside): what a sweep draws.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sgdsim {

struct PlotCurve {
  std::string group; // legend heading the curve is listed under (e.g. its series); empty: none
  std::string label;
  std::vector<std::pair<double, double>> points; // (x, y), drawn in x order
  int color    = 0;                              // index into a fixed colour-blind-safe palette (Okabe-Ito)
  bool dashed  = false;
  bool markers = true;
};

struct PlotSpec {
  std::string title;
  std::string subtitle;
  std::string x_label;
  std::string y_label;
  bool log2_x = false; // x axis in powers of two (for sweeps over 1..1024 workers)
  std::vector<PlotCurve> curves;
};

/** The plot as SVG text: axes from 0 (y) with round ticks, a legend that names every curve. Deterministic:
 *  the same spec gives the same bytes. Curves without points are left out of the legend. */
std::string svg_line_plot(const PlotSpec& spec);

} // namespace sgdsim
