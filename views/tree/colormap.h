#pragma once

#include <QColor>
#include <QList>

namespace dreamrsi {

/// Perceptually uniform colour scales for scores.
///
/// Viridis is rebuilt from eleven evenly spaced control points of the
/// published matplotlib table (van der Walt & Smith, 2015) and interpolated
/// linearly in sRGB between them; the error against the full 256-entry table
/// stays below two 8-bit steps, which is invisible at cell size.
class Colormap
{
public:
    /// The colour at t in [0, 1] (clamped; NaN maps to 0).
    static QColor viridis(double t);
    /// Equally spaced samples, for legends and cached lookups.
    static QList<QColor> viridisTable(int steps);
};

} // namespace dreamrsi
