#pragma once

#include <QList>

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

inline MeanCi95 meanCi95(const QList<double> &xs)
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
    out.ci95 = 1.96 * std::sqrt(ss / double(xs.size() - 1)) / std::sqrt(double(xs.size()));
    return out;
}

} // namespace dreamrsi
