#pragma once

#include <QList>

#include <cmath>
#include <iterator>
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
/// half-width factor of a two-sided 95 % interval over df + 1 values):
/// tabulated for 1–30, the Cornish–Fisher expansion beyond (within 1e-5 of
/// the exact value there), the normal 1.96 in the limit. NaN for df < 1.
inline double studentT975(qsizetype df)
{
    static constexpr double table[] = {12.7062047, 4.3026527, 3.1824463, 2.7764451, 2.5705818, 2.4469119,
                                       2.3646243,  2.3060041, 2.2621572, 2.2281389, 2.2009852, 2.1788128,
                                       2.1603687,  2.1447867, 2.1314495, 2.1199053, 2.1098155, 2.1009220,
                                       2.0930241,  2.0859634, 2.0796138, 2.0738731, 2.0686576, 2.0638986,
                                       2.0595386,  2.0555294, 2.0518305, 2.0484071, 2.0452296, 2.0422725};
    if (df < 1)
        return std::nan("");
    if (df <= qsizetype(std::size(table)))
        return table[df - 1];
    const double z = 1.959963984540054, v = double(df);
    const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
    return z + (z3 + z) / (4.0 * v) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
           + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v * v * v);
}

/// A sample's mean and the half-width of its Student-t 95 % interval,
/// t(0.975, n − 1) × s / √n: how few repeats (seeds of one setting) are
/// summarised honestly (docs/compare.md).
inline MeanCi95 meanTCi95(const QList<double> &xs)
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
    out.ci95 = studentT975(xs.size() - 1) * std::sqrt(ss / double(xs.size() - 1)) / std::sqrt(double(xs.size()));
    return out;
}

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
