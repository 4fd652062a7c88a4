// src/platform/least_squares.hpp: weighted least squares of up to 3 parameters by their normal equations, for
// sgdsim calibrate's linear fit and eq. (37) (calibration.cpp; allreduce_fits.cpp reaches eq. (37) through
// calibration_internal.hpp's fit_piecewise).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

namespace sgdsim {

// The weighted least-squares problem min sum_i w_i (x_i . p - y_i)^2 for up to 3 parameters, by its normal equations:
// rows are added one by one (no row is kept, so that a fit repeated on all points but one, as fit_robustly does for
// each point, costs no allocation), then solved by Gaussian elimination with partial pivoting.
class NormalEquations {
public:
  static constexpr std::size_t MAX_PARAMS = 3;

  explicit NormalEquations(std::size_t params) : n_(std::min(params, MAX_PARAMS)) {}

  void add(const std::array<double, MAX_PARAMS>& x, double y, double w)
  {
    for (std::size_t r = 0; r < n_; r++) {
      for (std::size_t c = 0; c < n_; c++)
        a_[r][c] += w * x[r] * x[c];
      a_[r][n_] += w * x[r] * y;
    }
  }

  // The parameters; false if the system is singular.
  bool solve(std::array<double, MAX_PARAMS>& p) const
  {
    std::array<std::array<double, MAX_PARAMS + 1>, MAX_PARAMS> a = a_;
    std::array<double, MAX_PARAMS> diag{}; // the original diagonal: a pivot far below it means dependent columns
    for (std::size_t c = 0; c < n_; c++)
      diag[c] = std::fabs(a[c][c]);
    for (std::size_t c = 0; c < n_; c++) {
      std::size_t pivot = c;
      for (std::size_t r = c + 1; r < n_; r++)
        if (std::fabs(a[r][c]) > std::fabs(a[pivot][c]))
          pivot = r;
      std::swap(a[c], a[pivot]);
      if (!(std::fabs(a[c][c]) > 1e-10 * diag[c]))
        return false;
      for (std::size_t r = 0; r < n_; r++)
        if (r != c) {
          double f = a[r][c] / a[c][c];
          for (std::size_t k = c; k <= n_; k++)
            a[r][k] -= f * a[c][k];
        }
    }
    p = {};
    for (std::size_t r = 0; r < n_; r++)
      p[r] = a[r][n_] / a[r][r];
    return true;
  }

  // The sums of two disjoint sets of rows: the system of their union.
  NormalEquations& operator+=(const NormalEquations& o)
  {
    for (std::size_t r = 0; r < n_; r++)
      for (std::size_t c = 0; c <= n_; c++)
        a_[r][c] += o.a_[r][c];
    return *this;
  }

  // The system with parameter `col` fixed at `value`: its part of every sum moves to the right-hand side, so that
  // restricted() to the other parameters solves for them alone.
  NormalEquations with_fixed(std::size_t col, double value) const
  {
    NormalEquations out = *this;
    for (std::size_t r = 0; r < n_; r++)
      out.a_[r][n_] -= a_[r][col] * value;
    return out;
  }

  // The system of the parameters `cols` (indices into this one's, in order) alone: each entry is the same sum over
  // the same rows as if the rows had been added with only those parameters.
  NormalEquations restricted(const std::array<std::size_t, MAX_PARAMS>& cols, std::size_t n_cols) const
  {
    NormalEquations out(n_cols);
    for (std::size_t r = 0; r < out.n_; r++) {
      for (std::size_t c = 0; c < out.n_; c++)
        out.a_[r][c] = a_[cols[r]][cols[c]];
      out.a_[r][out.n_] = a_[cols[r]][n_];
    }
    return out;
  }

private:
  std::size_t n_;
  std::array<std::array<double, MAX_PARAMS + 1>, MAX_PARAMS> a_{};
};

} // namespace sgdsim
