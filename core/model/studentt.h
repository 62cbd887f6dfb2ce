#pragma once

namespace dreamrsi {

// Student's t distribution, decided once: the 95 % intervals of re-evaluated
// cells (core/project/reevaluationstats.h) and of seeds of one setting
// (meanci.h: meanTCi95, docs/compare.md) take their quantile from here.

/// The quantile of Student's t distribution with `dof` ≥ 1 degrees of
/// freedom at probability `p` in (0, 1): the inverse of its distribution
/// function, computed through the regularized incomplete beta function to
/// about 1e-10 (t(0.975, 1) = 12.7062, t(0.975, 4) = 2.7764, t(0.975, 29) =
/// 2.0452). NaN for a dof below 1 or a p outside (0, 1).
double studentTQuantile(double p, int dof);

/// I_x(a, b), the regularized incomplete beta function, for x in [0, 1] and
/// a, b > 0 (a continued fraction, Lentz's method).
double regularizedIncompleteBeta(double a, double b, double x);

} // namespace dreamrsi
