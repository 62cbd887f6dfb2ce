#pragma once

#include <QImage>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include "base/result.h"

#include <functional>
#include <optional>

class QPainter;

namespace dreamrsi {

/// Export of any painted figure to PNG, PDF or SVG (chosen by the file's
/// suffix) at a physical size and resolution.
///
/// The painter callback draws into `area`, in logical units of
/// 1/logicalDpi() inch: the units text is measured in (QFontMetrics without
/// a device, as QCustomPlot and the layouts measure it), 1/96 inch on a
/// standard screen, so that text is painted exactly as large as it was
/// measured and a figure looks the same on screen and on paper. PDF and SVG stay vector (text as text); PNG is
/// rasterised at `dpi` and carries the resolution in its header.
class FigureExport
{
public:
    enum class Format { Png, Pdf, Svg };
    /// The painter is always a QCPPainter (a QPainter subclass), so QCustomPlot
    /// figures can render into it with QCustomPlot::toPainter().
    using Painter = std::function<void(QPainter &painter, const QRectF &area)>;

    struct Options
    {
        QSizeF sizeMm{160.0, 100.0}; ///< paper-friendly default: a two-column figure
        int dpi = 300;
        QString title;
    };

    static std::optional<Format> formatForPath(const QString &path);
    /// The resolution text is measured at (the screen's logical DPI, 96 on
    /// a standard screen and offscreen): the figures' logical units per inch.
    /// Millimetres in an inch.
    static constexpr double MmPerInch = 25.4;
    static double logicalDpi();
    /// The logical canvas (1/logicalDpi() inch units) of a physical size.
    static QSizeF logicalSize(const QSizeF &sizeMm);
    /// The pixel size a PNG of that size and resolution gets.
    static QSize pixelSize(const QSizeF &sizeMm, int dpi);

    /// The figure as an image of `options.sizeMm` at `options.dpi` (white
    /// paper, resolution in the header); a null image when it is too large.
    static QImage render(const Options &options, const Painter &paint);
    /// Writes the figure; a failure says what went wrong (format, size, file).
    static Result<Done> write(const QString &path, const Options &options, const Painter &paint);

    /// Where the caption table of a figure goes: beside it, `fig.pdf` → `fig.table.tex`.
    static QString captionTablePath(const QString &figurePath);
    /// Writes `text` (UTF-8) atomically; a failure names the path and the cause.
    static Result<Done> writeText(const QString &path, const QString &text);
};

} // namespace dreamrsi
