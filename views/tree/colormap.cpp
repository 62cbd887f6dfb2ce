#include "colormap.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace dreamrsi {

namespace {
// viridis at t = 0, 0.1, …, 1.
constexpr std::array<QRgb, 11> ViridisStops = {
    0x440154, 0x482475, 0x414487, 0x355f8d, 0x2a788e, 0x21918c,
    0x22a884, 0x44bf70, 0x7ad151, 0xbddf26, 0xfde725,
};
} // namespace

QColor Colormap::viridis(double t)
{
    if (!std::isfinite(t))
        t = 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double x = t * double(ViridisStops.size() - 1);
    const int i = std::min(int(x), int(ViridisStops.size()) - 2);
    const double f = x - i;
    const QRgb a = ViridisStops[size_t(i)];
    const QRgb b = ViridisStops[size_t(i) + 1];
    auto mix = [f](int p, int q) { return int(std::lround(p + (q - p) * f)); };
    return QColor(mix(qRed(a), qRed(b)), mix(qGreen(a), qGreen(b)), mix(qBlue(a), qBlue(b)));
}

QList<QColor> Colormap::viridisTable(int steps)
{
    QList<QColor> table;
    steps = std::max(steps, 2);
    table.reserve(steps);
    for (int i = 0; i < steps; ++i)
        table.append(viridis(double(i) / (steps - 1)));
    return table;
}

QStringList Colormap::tickLabels(const QList<double> &values)
{
    QStringList labels;
    double step = std::numeric_limits<double>::infinity();
    double largest = 0;
    for (qsizetype i = 0; i < values.size(); ++i) {
        largest = std::max(largest, std::abs(values.at(i)));
        if (i > 0 && values.at(i) != values.at(i - 1))
            step = std::min(step, std::abs(values.at(i) - values.at(i - 1)));
    }
    auto format = [&values](char f, int precision) {
        QStringList out;
        for (double v : values)
            out.append(QString::number(v, f, precision));
        return out;
    };
    // All ticks at one value (a scale of one score): the value once, at the
    // top of the bar, the other ticks unlabelled (not "100" five times).
    if (!std::isfinite(step)) {
        for (qsizetype i = 0; i < values.size(); ++i)
            labels.append(i + 1 == values.size() ? QString::number(values.at(i), 'g', 6) : QString());
        return labels;
    }
    const double tolerance = step / 20;
    auto closeEnough = [&values, tolerance](const QStringList &candidate) {
        for (qsizetype i = 0; i < values.size(); ++i) {
            if (!(std::abs(candidate.at(i).toDouble() - values.at(i)) <= tolerance))
                return false;
        }
        return true;
    };
    // Decimals for everyday magnitudes, significant digits for the very
    // small and the very large, as few as keep each label near its tick.
    const bool fixed = largest >= 1e-3 && largest < 1e6;
    for (int precision = fixed ? 0 : 1; precision <= 15; ++precision) {
        labels = format(fixed ? 'f' : 'g', precision);
        if (closeEnough(labels))
            return labels;
    }
    return format('g', 15);
}

} // namespace dreamrsi
