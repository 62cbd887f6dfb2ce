#include "figureexport.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScreen>
#include <QSvgGenerator>

#include "qcp.h"

#include <cmath>

namespace dreamrsi {

double FigureExport::logicalDpi()
{
    // What QFontMetrics(font) measures with: the primary screen's logical
    // DPI, whole (Qt rounds it). Painting at another resolution made text
    // larger or smaller than the layout had measured it (tick labels ran
    // together on a screen below 96 DPI).
    const QScreen *screen = QGuiApplication::primaryScreen();
    const int dpi = screen ? int(std::lround(screen->logicalDotsPerInchY())) : 96;
    return dpi > 0 ? dpi : 96.0;
}

std::optional<FigureExport::Format> FigureExport::formatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return Format::Png;
    if (suffix == QLatin1String("pdf"))
        return Format::Pdf;
    if (suffix == QLatin1String("svg"))
        return Format::Svg;
    return std::nullopt;
}

QSizeF FigureExport::logicalSize(const QSizeF &sizeMm)
{
    return sizeMm / FigureExport::MmPerInch * logicalDpi();
}

QSize FigureExport::pixelSize(const QSizeF &sizeMm, int dpi)
{
    return QSize(int(std::lround(sizeMm.width() / FigureExport::MmPerInch * dpi)), int(std::lround(sizeMm.height() / FigureExport::MmPerInch * dpi)));
}

QImage FigureExport::render(const Options &options, const Painter &paint)
{
    const QSize px = pixelSize(options.sizeMm, options.dpi);
    QImage image(px, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return image;
    const double logical = logicalDpi();
    image.setDevicePixelRatio(options.dpi / logical);
    // Painted at the logical resolution so that point sizes come out right
    // and as large as they were measured.
    const int dpm = int(std::lround(logical / FigureExport::MmPerInch * 1000.0));
    image.setDotsPerMeterX(dpm);
    image.setDotsPerMeterY(dpm);
    image.fill(Qt::white);
    {
        QCPPainter painter(&image);
        painter.setMode(QCPPainter::pmNoCaching);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        paint(painter, QRectF(QPointF(0, 0), logicalSize(options.sizeMm)));
    }
    const int realDpm = int(std::lround(options.dpi / FigureExport::MmPerInch * 1000.0));
    image.setDotsPerMeterX(realDpm);
    image.setDotsPerMeterY(realDpm);
    return image;
}

Result<Done> FigureExport::write(const QString &path, const Options &options, const Painter &paint)
{
    auto fail = [](const QString &message) { return Result<Done>::failure(message); };
    const auto written = [] { return Result<Done>::success({}); };
    const auto format = formatForPath(path);
    if (!format)
        return fail(QCoreApplication::translate("dreamrsi::FigureExport", "Unknown figure format of %1: use .png, .pdf or .svg.").arg(path));
    if (options.sizeMm.width() < 10 || options.sizeMm.height() < 10 || options.sizeMm.width() > 2000
        || options.sizeMm.height() > 2000)
        return fail(QCoreApplication::translate("dreamrsi::FigureExport", "Figure size must be between 10 and 2000 mm."));
    if (options.dpi < 36 || options.dpi > 2400)
        return fail(QCoreApplication::translate("dreamrsi::FigureExport", "Resolution must be between 36 and 2400 dpi."));
    const QSizeF logical = logicalSize(options.sizeMm);
    const QRectF area(QPointF(0, 0), logical);

    switch (*format) {
    case Format::Png: {
        const QImage image = render(options, paint);
        if (image.isNull()) {
            const QSize px = pixelSize(options.sizeMm, options.dpi);
            return fail(QCoreApplication::translate("dreamrsi::FigureExport", "Not enough memory for a %1×%2 image.").arg(px.width()).arg(px.height()));
        }
        if (!image.save(path, "PNG"))
            return fail(QCoreApplication::translate("dreamrsi::FigureExport", "Could not write %1.").arg(path));
        return written();
    }
    case Format::Pdf: {
        QPdfWriter writer(path);
        writer.setTitle(options.title);
        writer.setCreator(QStringLiteral("Dream-RSI Workbench"));
        writer.setResolution(int(logicalDpi()));
        writer.setPageSize(QPageSize(options.sizeMm, QPageSize::Millimeter));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QCPPainter painter;
        if (!painter.begin(&writer))
            return fail(QCoreApplication::translate("dreamrsi::FigureExport", "Could not write %1.").arg(path));
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        paint(painter, area);
        painter.end();
        if (QFileInfo(path).size() <= 0)
            return fail(QCoreApplication::translate("dreamrsi::FigureExport", "Could not write %1.").arg(path));
        return written();
    }
    case Format::Svg: {
        // Written to memory first: the generator rounds the canvas to whole
        // pixels, so its width and height are then set to the exact millimetres.
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setTitle(options.title);
        generator.setDescription(QStringLiteral("Dream-RSI Workbench"));
        generator.setResolution(int(logicalDpi()));
        generator.setSize(logical.toSize());
        generator.setViewBox(area);
        QCPPainter painter;
        if (!painter.begin(&generator))
            return fail(QCoreApplication::translate("dreamrsi::FigureExport", "Could not write %1.").arg(path));
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        painter.fillRect(area, Qt::white);
        paint(painter, area);
        painter.end();
        QString svg = QString::fromUtf8(buffer.data());
        static const QRegularExpression size(QStringLiteral("<svg width=\"[0-9.]+mm\" height=\"[0-9.]+mm\""));
        svg.replace(size, QStringLiteral("<svg width=\"%1mm\" height=\"%2mm\"")
                              .arg(options.sizeMm.width(), 0, 'f', 2)
                              .arg(options.sizeMm.height(), 0, 'f', 2));
        return writeText(path, svg);
    }
    }
    return fail(QCoreApplication::translate("dreamrsi::FigureExport", "Unknown figure format of %1: use .png, .pdf or .svg.").arg(path));
}

QString FigureExport::captionTablePath(const QString &figurePath)
{
    const QFileInfo info(figurePath);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral(".table.tex"));
}

Result<Done> FigureExport::writeText(const QString &path, const QString &text)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit())
        return Result<Done>::failure(
            QCoreApplication::translate("dreamrsi::FigureExport", "Could not write %1: %2").arg(path, file.errorString()));
    return Result<Done>::success({});
}

} // namespace dreamrsi
