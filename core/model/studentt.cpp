#include "studentt.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dreamrsi {

namespace {

/// The continued fraction of I_x(a, b) (modified Lentz), valid for x < (a + 1) / (a + b + 2).
double betaContinuedFraction(double a, double b, double x)
{
    constexpr double tiny = 1e-300;
    constexpr double eps = 1e-15;
    const double qab = a + b;
    const double qap = a + 1.0;
    const double qam = a - 1.0;
    double c = 1.0;
    double d = 1.0 - qab * x / qap;
    if (std::fabs(d) < tiny)
        d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 1000; ++m) {
        const int m2 = 2 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if (std::fabs(d) < tiny)
            d = tiny;
        c = 1.0 + aa / c;
        if (std::fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if (std::fabs(d) < tiny)
            d = tiny;
        c = 1.0 + aa / c;
        if (std::fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        const double del = d * c;
        h *= del;
        if (std::fabs(del - 1.0) < eps)
            break;
    }
    return h;
}

/// P(T ≤ t) for Student's t with `dof` degrees of freedom.
double studentTCdf(double t, double dof)
{
    const double tail = 0.5 * regularizedIncompleteBeta(dof / 2.0, 0.5, dof / (dof + t * t));
    return t >= 0.0 ? 1.0 - tail : tail;
}

} // namespace

double regularizedIncompleteBeta(double a, double b, double x)
{
    if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0) || !(x <= 1.0))
        return std::numeric_limits<double>::quiet_NaN();
    if (x == 0.0 || x == 1.0)
        return x;
    const double front =
        std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
    // The fraction converges fast on the side of the mode; the symmetry
    // I_x(a, b) = 1 − I_{1−x}(b, a) covers the other.
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * betaContinuedFraction(a, b, x) / a;
    return 1.0 - front * betaContinuedFraction(b, a, 1.0 - x) / b;
}

double studentTQuantile(double p, int dof)
{
    if (dof < 1 || !(p > 0.0) || !(p < 1.0))
        return std::numeric_limits<double>::quiet_NaN();
    if (p == 0.5)
        return 0.0;
    if (p < 0.5)
        return -studentTQuantile(1.0 - p, dof);
    // Bisection on the distribution function: monotone, and the bracket
    // doubles until it holds the quantile (t(1 − 1e-12, 1) is about 3e11).
    double lo = 0.0;
    double hi = 2.0;
    while (studentTCdf(hi, dof) < p && hi < 1e300)
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * std::max(1.0, hi); ++i) {
        const double mid = 0.5 * (lo + hi);
        (studentTCdf(mid, dof) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

} // namespace dreamrsi
