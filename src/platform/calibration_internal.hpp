// src/platform/calibration_internal.hpp: what calibration.cpp's fits share with allreduce_fits.cpp; not part of
// calibrate's interface (calibration.hpp).
#pragma once

#include "platform/calibration.hpp"

#include <optional>
#include <vector>

namespace sgdsim::calibration_internal {

/** Relative errors: each point's weight 1 / T^2 (every point counts alike whatever its size). */
std::vector<double> relative_weights(const std::vector<CommMeasurement>& m);

/** f's linear model at a measured point: eq. (41) for an all-reduce (its bytes times the ring factor over B, alpha
 *  per message, c), bytes / B + c for a transfer. */
double linear_time_s(const CalibrationFit& f, const CommMeasurement& x);

/** Eq. (37) on the sizes of `m` (one node count), weights `w`: every threshold with two or more points on each side
 *  is tried, the one of least weighted squared error kept; none if no threshold leaves two points on each side with
 *  a time per byte above it that is finite and not negative (times that fall as sizes grow: `calibrate -o` would
 *  write a sgdsim.allreduce_time that `run` refuses). */
std::optional<PiecewiseTime> fit_piecewise(const std::vector<CommMeasurement>& m, const std::vector<double>& w);

} // namespace sgdsim::calibration_internal
