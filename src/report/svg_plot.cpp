#include "report/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sgdsim {

namespace {
// Okabe & Ito's palette (2008), distinguishable with the common colour-vision deficiencies.
constexpr const char* kPalette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000", "#F0E442"};
constexpr int kPaletteSize       = 8;

// Canvas and margins in SVG user units (pixels at 100% zoom).
constexpr double kWidth = 960, kHeight = 600;
constexpr double kLeft = 90, kRight = 300, kTop = 70, kBottom = 60;

std::string num(double v)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string escape(const std::string& s)
{
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// The step of about `target` ticks over [0, max]: 1, 2 or 5 times a power of ten.
double nice_step(double max, int target)
{
  double raw  = max / target;
  double pow  = std::pow(10.0, std::floor(std::log10(raw)));
  double frac = raw / pow;
  return (frac <= 1 ? 1 : frac <= 2 ? 2 : frac <= 5 ? 5 : 10) * pow;
}

std::string tick_label(double v)
{
  char buf[32];
  if (std::fabs(v) >= 1e6 || (std::fabs(v) < 1e-3 && v != 0))
    std::snprintf(buf, sizeof buf, "%.3g", v);
  else
    std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}
} // namespace

std::string svg_line_plot(const PlotSpec& spec)
{
  double x_min = INFINITY, x_max = -INFINITY, y_max = 0;
  for (const PlotCurve& c : spec.curves)
    for (auto [x, y] : c.points) {
      x_min = std::min(x_min, x);
      x_max = std::max(x_max, x);
      y_max = std::max(y_max, y);
    }
  if (!std::isfinite(x_min)) { // nothing to draw: an empty frame
    x_min = 0;
    x_max = 1;
  }
  if (spec.log2_x) {
    x_min = std::pow(2.0, std::floor(std::log2(std::max(x_min, 1.0))));
    x_max = std::pow(2.0, std::ceil(std::log2(std::max(x_max, 2.0))));
  } else if (x_max == x_min) {
    x_max = x_min + 1;
  }
  if (y_max <= 0)
    y_max = 1;
  const double y_step = nice_step(y_max, 6);
  const double y_top  = std::ceil(y_max * 1.02 / y_step) * y_step;
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto px = [&](double x) {
    double f = spec.log2_x ? (std::log2(x) - std::log2(x_min)) / (std::log2(x_max) - std::log2(x_min))
                           : (x - x_min) / (x_max - x_min);
    return kLeft + f * plot_w;
  };
  auto py = [&](double y) { return kTop + plot_h - y / y_top * plot_h; };

  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) + "\" height=\"" + num(kHeight) +
                  "\" viewBox=\"0 0 " + num(kWidth) + " " + num(kHeight) +
                  "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"13\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + num(kLeft) + "\" y=\"28\" font-size=\"17\" font-weight=\"bold\">" + escape(spec.title) +
       "</text>\n";
  s += "<text x=\"" + num(kLeft) + "\" y=\"50\" fill=\"#444\">" + escape(spec.subtitle) + "</text>\n";

  // Grid and ticks.
  for (double y = 0; y <= y_top + y_step / 2; y += y_step) {
    s += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(py(y)) + "\" x2=\"" + num(kLeft + plot_w) + "\" y2=\"" +
         num(py(y)) + "\" stroke=\"#ddd\"/>\n";
    s += "<text x=\"" + num(kLeft - 8) + "\" y=\"" + num(py(y) + 4) + "\" text-anchor=\"end\">" + tick_label(y) +
         "</text>\n";
  }
  std::vector<double> x_ticks;
  if (spec.log2_x) {
    for (double x = x_min; x <= x_max * 1.0001; x *= 2)
      x_ticks.push_back(x);
  } else {
    double step = std::max(1.0, nice_step(x_max - x_min, 8));
    for (double x = std::ceil(x_min / step) * step; x <= x_max + step / 1e6; x += step)
      x_ticks.push_back(x);
    if (x_ticks.empty() || x_ticks.front() > x_min)
      x_ticks.insert(x_ticks.begin(), x_min);
  }
  for (double x : x_ticks) {
    s += "<line x1=\"" + num(px(x)) + "\" y1=\"" + num(kTop) + "\" x2=\"" + num(px(x)) + "\" y2=\"" +
         num(kTop + plot_h) + "\" stroke=\"#eee\"/>\n";
    s += "<text x=\"" + num(px(x)) + "\" y=\"" + num(kTop + plot_h + 18) + "\" text-anchor=\"middle\">" +
         tick_label(x) + "</text>\n";
  }
  s += "<rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(plot_w) + "\" height=\"" + num(plot_h) +
       "\" fill=\"none\" stroke=\"#333\"/>\n";
  s += "<text x=\"" + num(kLeft + plot_w / 2) + "\" y=\"" + num(kHeight - 15) + "\" text-anchor=\"middle\">" +
       escape(spec.x_label) + "</text>\n";
  s += "<text transform=\"translate(22," + num(kTop + plot_h / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
       escape(spec.y_label) + "</text>\n";

  // Curves, then the legend.
  int legend_row = 0;
  std::string group;
  for (const PlotCurve& c : spec.curves) {
    if (c.points.empty())
      continue;
    std::vector<std::pair<double, double>> pts = c.points;
    std::sort(pts.begin(), pts.end());
    const char* color      = kPalette[((c.color % kPaletteSize) + kPaletteSize) % kPaletteSize];
    const std::string dash = c.dashed ? " stroke-dasharray=\"7,5\"" : "";
    s += "<polyline fill=\"none\" stroke=\"" + std::string(color) + "\" stroke-width=\"2\"" + dash + " points=\"";
    for (std::size_t i = 0; i < pts.size(); i++) {
      if (i > 0)
        s += ' ';
      s += num(px(pts[i].first));
      s += ',';
      s += num(py(pts[i].second));
    }
    s += "\"/>\n";
    if (c.markers)
      for (auto [x, y] : pts)
        s += "<circle cx=\"" + num(px(x)) + "\" cy=\"" + num(py(y)) + "\" r=\"3\" fill=\"" + color + "\"/>\n";
    const double lx = kLeft + plot_w + 20;
    if (!c.group.empty() && c.group != group) {
      group = c.group;
      s += "<text x=\"" + num(lx) + "\" y=\"" + num(kTop + 14 + 20 * legend_row++ + 6) +
           "\" font-weight=\"bold\" fill=\"" + color + "\">" + escape(group) + "</text>\n";
    }
    const double ly = kTop + 10 + 20 * legend_row++ + 6;
    s += "<line x1=\"" + num(lx) + "\" y1=\"" + num(ly) + "\" x2=\"" + num(lx + 34) + "\" y2=\"" + num(ly) +
         "\" stroke=\"" + color + "\" stroke-width=\"2\"" + dash + "/>\n";
    s += "<text x=\"" + num(lx + 42) + "\" y=\"" + num(ly + 4) + "\">" + escape(c.label) + "</text>\n";
  }
  s += "</svg>\n";
  return s;
}

} // namespace sgdsim
