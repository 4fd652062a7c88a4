// The compute times of one step of one worker, drawn from the workload: for each layer in forward order, one of
// its profiled samples (uniformly, when it has several) and, with a jitter, a multiplicative noise. Used by the
// SimGrid workers and by the reference simulation, so both see the same times for the same seed.
#pragma once

#include "common/rng.hpp"
#include "workload/workload.hpp"

#include <vector>

namespace sgdsim {

/** Fills fwd_s and bwd_s (one per layer, on the reference device). `jitter_cv` > 0 multiplies each time by an
 *  independent uniform factor of mean 1 and coefficient of variation jitter_cv (at most 1/sqrt(3), so that the
 *  factor stays non-negative). Draws: per layer, the sample index if there are several, then the two factors. */
void draw_step_times(const Workload& wl, Rng& rng, double jitter_cv, std::vector<double>& fwd_s,
                     std::vector<double>& bwd_s);

/** Largest accepted jitter: a uniform factor 1 + cv*sqrt(3)*(2u-1) stays >= 0 up to cv = 1/sqrt(3). */
constexpr double kMaxJitterCv = 0.5773502691896257;

} // namespace sgdsim
