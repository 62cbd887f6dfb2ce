#pragma once

#include "figureexport.h"

#include <QCoreApplication>
#include <QSizeF>

#include <functional>
#include <QString>

class QCPAbstractPlottable;
class QCPAxis;
class QCustomPlot;
class QPainter;

namespace dreamrsi {

/// Lays out any QCustomPlot figure for the physical size it is exported at,
/// every panel (axis rect) of it alike: fonts of 6 to 9 pt at the final
/// size, one size per role (tick labels, axis titles, legend, annotations)
/// across the panels, the legend in a band above the panels (wrapped into
/// columns, short series names) so it never covers a curve, axis titles
/// that fit their axis (wrapped, shortened or, all of them together,
/// smaller), as many ticks as each axis has room for without its labels
/// touching, tick labels inside the page and whole-number ticks on
/// counting axes.
///
/// The code that fills a plot leaves hints on its objects (short names,
/// short axis titles, counting axes); the layout reads them, so the same
/// machinery serves every figure kind.
class FigureLayout
{
    Q_DECLARE_TR_FUNCTIONS(FigureLayout)
public:
    /// The legend text of `plottable` when space is short (the full name stays on screen).
    static void setShortName(QCPAbstractPlottable *plottable, const QString &shortName);
    /// A shorter axis title, used when the full one does not fit even on two lines.
    static void setShortLabel(QCPAxis *axis, const QString &shortLabel);
    /// Makes `axis` count things: whole-number ticks and labels.
    static void setIntegerAxis(QCPAxis *axis);
    static bool isIntegerAxis(const QCPAxis *axis);

    /// Point sizes used at a physical size (all between 6 and 9 pt).
    struct Fonts
    {
        double tick = 7.0;
        double label = 8.0;
        double legend = 7.0;
        double annotation = 6.0;
    };
    static Fonts fontsFor(const QSizeF &sizeMm);
    static constexpr double MinPointSize = 6.0;
    static constexpr double MaxPointSize = 9.0;

    /// Lays `plot` out as a figure of `logicalSize` (FigureExport::logicalDpi() units, the
    /// FigureExport canvas) and leaves it that way: afterwards the layout
    /// elements report their rectangles at that size. For plots made only to
    /// be exported; use paint() for a plot that is on screen.
    static void apply(QCustomPlot *plot, const QSizeF &logicalSize);
    /// Paints `plot` laid out as a figure filling `area` (painter must be a
    /// QCPPainter, as FigureExport's is), then restores the plot's screen layout.
    static void paint(QCustomPlot *plot, QPainter &painter, const QRectF &area);
    /// A FigureExport painter that draws `plot` through paint().
    static FigureExport::Painter painterFor(QCustomPlot *plot);
    /// painterFor() in the paper's light palette: on a dark screen,
    /// `restyle(false)` before painting and `restyle(true)` after.
    static FigureExport::Painter paperPainterFor(QCustomPlot *plot, bool dark, std::function<void(bool dark)> restyle);
};

} // namespace dreamrsi
