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
/// tabulated for 1–30 (to 1e-12), the Cornish–Fisher expansion beyond (within 1e-5 of
/// the exact value there), the normal 1.96 in the limit. NaN for df < 1.
inline double studentT975(qsizetype df)
{
    static constexpr double table[] = {12.706204736175, 4.302652729749, 3.182446305284, 2.776445105198, 2.570581835636, 2.446911851145,
                                       2.364624251593, 2.306004135204, 2.262157162798, 2.228138851986, 2.200985160083, 2.178812829667,
                                       2.160368656461, 2.144786687918, 2.131449545560, 2.119905299221, 2.109815577833, 2.100922040241,
                                       2.093024054408, 2.085963447266, 2.079613844728, 2.073873067904, 2.068657610419, 2.063898561628,
                                       2.059538552753, 2.055529438643, 2.051830516480, 2.048407141795, 2.045229642133, 2.042272456301};
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
