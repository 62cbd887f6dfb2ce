#pragma once

#include <QColor>
#include <QList>
#include <QStringList>

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
    /// Labels for the ticks of a colour scale at `values` (in order): the
    /// fewest decimals that put every label within a twentieth of the
    /// smallest step of its tick, so neighbouring ticks never read alike
    /// (scores of 1.03583 … 1.03636 get five decimals, a 0–1 scale two).
    /// Magnitudes below 0.001 or from a million up use significant digits
    /// in the same way.
    /// Ticks all at one value (every score equal) label only the last (the
    /// top of the bar) and leave the others empty.
    static QStringList tickLabels(const QList<double> &values);
};

} // namespace dreamrsi
