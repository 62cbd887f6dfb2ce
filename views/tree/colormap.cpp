#include "colormap.h"

#include <algorithm>
#include <array>
#include <cmath>

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

} // namespace dreamrsi
