#pragma once

#include "studentt.h"

#include <QList>

#include <algorithm>
#include <cmath>
#include <optional>

namespace dreamrsi {

/// A sample's mean and the half-width of its normal 95 % interval,
/// 1.96 × s / √n with s the sample standard deviation: how the counterfactual
/// loop's summaries and the Progress tab's simulation bands report repeats.
struct MeanCi95
{
    std::optional<double> mean;  ///< none for an empty sample
    std::optional<double> ci95;  ///< none with fewer than two values
};

/// The 0.975 quantile of Student's t with `df` degrees of freedom (the
/// half-width factor of a two-sided 95 % interval over df + 1 values;
/// studentTQuantile). NaN for df < 1.
inline double studentT975(qsizetype df)
{
    return studentTQuantile(0.975, df < 1 ? 0 : int(std::min<qsizetype>(df, 1 << 30)));
}

namespace detail {
/// The mean and `factor(n − 1)` × s / √n, s the sample standard deviation.
template<typename Factor>
MeanCi95 meanAndHalfWidth(const QList<double> &xs, Factor factor)
{
    MeanCi95 out;
    if (xs.isEmpty())
        return out;
    double m = 0.0;
    for (const double x : xs)
        m += x;
    m /= double(xs.size());
    out.mean = m;
    if (xs.size() < 2)
        return out;
    double ss = 0.0;
    for (const double x : xs)
        ss += (x - m) * (x - m);
    out.ci95 = factor(xs.size() - 1) * std::sqrt(ss / double(xs.size() - 1)) / std::sqrt(double(xs.size()));
    return out;
}
} // namespace detail

/// A sample's mean and the half-width of its Student-t 95 % interval,
/// t(0.975, n − 1) × s / √n: how few repeats (seeds of one setting) are
/// summarised honestly (docs/compare.md).
inline MeanCi95 meanTCi95(const QList<double> &xs)
{
    return detail::meanAndHalfWidth(xs, [](qsizetype df) { return studentT975(df); });
}

/// The normal interval of MeanCi95: 1.96 × s / √n.
inline MeanCi95 meanCi95(const QList<double> &xs)
{
    return detail::meanAndHalfWidth(xs, [](qsizetype) { return 1.96; });
}

} // namespace dreamrsi
