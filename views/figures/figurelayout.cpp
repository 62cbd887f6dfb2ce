#include "figurelayout.h"

#include "integerticker.h"
#include "qcp.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {
constexpr char ShortNameProperty[] = "dreamrsiShortName";
constexpr char ShortLabelProperty[] = "dreamrsiShortLabel";
constexpr double LogicalDpi = 96.0;
constexpr double MmPerInch = 25.4;

QFont sized(QFont font, double points)
{
    font.setPointSizeF(points);
    return font;
}

// Everything apply() changes, so that paint() can give an on-screen plot its look back.
struct PlotState
{
    struct Axis
    {
        QCPAxis *axis;
        QFont labelFont, tickLabelFont, selectedLabelFont, selectedTickLabelFont;
        QString label;
        int labelPadding, tickLabelPadding, padding, tickLengthIn, tickLengthOut, subTickLengthIn, subTickLengthOut;
        int tickCount;
    };
    QRect viewport;
    QList<Axis> axes;
    QList<std::pair<QCPAbstractPlottable *, QString>> names;
    QList<std::pair<QCPItemText *, QFont>> texts;
    QFont legendFont, legendSelectedFont;
    QSize iconSize;
    int iconTextPadding = 0;
    QPen legendBorder;
    QBrush legendBrush;
    QMargins legendMargins;
    int legendColumnSpacing = 0, legendRowSpacing = 0, legendWrap = 0;
    QCPLayoutGrid::FillOrder legendFillOrder = QCPLayoutGrid::foRowsFirst;
    bool legendInInset = false;
    Qt::Alignment legendAlignment;
    QMargins minimumMargins;

    explicit PlotState(QCustomPlot *plot)
    {
        viewport = plot->viewport();
        for (QCPAxis *a : plot->axisRect()->axes()) {
            axes.append({a, a->labelFont(), a->tickLabelFont(), a->selectedLabelFont(), a->selectedTickLabelFont(), a->label(),
                         a->labelPadding(), a->tickLabelPadding(), a->padding(), a->tickLengthIn(), a->tickLengthOut(),
                         a->subTickLengthIn(), a->subTickLengthOut(), a->ticker()->tickCount()});
        }
        for (int i = 0; i < plot->plottableCount(); ++i)
            names.append({plot->plottable(i), plot->plottable(i)->name()});
        for (int i = 0; i < plot->itemCount(); ++i) {
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
                texts.append({text, text->font()});
        }
        QCPLegend *legend = plot->legend;
        legendFont = legend->font();
        legendSelectedFont = legend->selectedFont();
        iconSize = legend->iconSize();
        iconTextPadding = legend->iconTextPadding();
        legendBorder = legend->borderPen();
        legendBrush = legend->brush();
        legendMargins = legend->margins();
        legendColumnSpacing = legend->columnSpacing();
        legendRowSpacing = legend->rowSpacing();
        legendWrap = legend->wrap();
        legendFillOrder = legend->fillOrder();
        QCPLayoutInset *inset = plot->axisRect()->insetLayout();
        for (int i = 0; i < inset->elementCount(); ++i) {
            if (inset->elementAt(i) == legend) {
                legendInInset = true;
                legendAlignment = inset->insetAlignment(i);
            }
        }
        minimumMargins = plot->axisRect()->minimumMargins();
    }

    void restore(QCustomPlot *plot) const
    {
        for (const Axis &a : axes) {
            a.axis->setLabelFont(a.labelFont);
            a.axis->setTickLabelFont(a.tickLabelFont);
            a.axis->setSelectedLabelFont(a.selectedLabelFont);
            a.axis->setSelectedTickLabelFont(a.selectedTickLabelFont);
            a.axis->setLabel(a.label);
            a.axis->setLabelPadding(a.labelPadding);
            a.axis->setTickLabelPadding(a.tickLabelPadding);
            a.axis->setPadding(a.padding);
            a.axis->setTickLength(a.tickLengthIn, a.tickLengthOut);
            a.axis->setSubTickLength(a.subTickLengthIn, a.subTickLengthOut);
            a.axis->ticker()->setTickCount(a.tickCount);
        }
        for (const auto &[plottable, name] : names)
            plottable->setName(name);
        for (const auto &[text, font] : texts)
            text->setFont(font);
        QCPLegend *legend = plot->legend;
        if (legendInInset && legend->layout() != plot->axisRect()->insetLayout()) {
            plot->plotLayout()->take(legend);
            plot->plotLayout()->simplify();
            plot->axisRect()->insetLayout()->addElement(legend, legendAlignment);
        }
        legend->setFont(legendFont);
        legend->setSelectedFont(legendSelectedFont);
        legend->setIconSize(iconSize);
        legend->setIconTextPadding(iconTextPadding);
        legend->setBorderPen(legendBorder);
        legend->setBrush(legendBrush);
        legend->setMargins(legendMargins);
        legend->setColumnSpacing(legendColumnSpacing);
        legend->setRowSpacing(legendRowSpacing);
        legend->setWrap(legendWrap);
        legend->setFillOrder(legendFillOrder, true);
        plot->axisRect()->setMinimumMargins(minimumMargins);
        plot->setViewport(viewport);
    }
};

void layOut(QCustomPlot *plot, const QSize &size)
{
    plot->setViewport(QRect(QPoint(0, 0), size));
    plot->plotLayout()->update(QCPLayoutElement::upPreparation);
    plot->plotLayout()->update(QCPLayoutElement::upMargins);
    plot->plotLayout()->update(QCPLayoutElement::upLayout);
}

// The title broken into two lines: before an opening parenthesis if there is
// one, else at the space nearest the middle. Empty when it has no space.
QString twoLines(const QString &label)
{
    if (label.contains(QLatin1Char('\n')))
        return {};
    const qsizetype paren = label.indexOf(QStringLiteral(" ("));
    if (paren > 0)
        return label.left(paren) + QLatin1Char('\n') + label.mid(paren + 1);
    qsizetype best = -1;
    for (qsizetype i = 0; i < label.size(); ++i) {
        if (label.at(i) == QLatin1Char(' ') && (best < 0 || std::abs(i - label.size() / 2) < std::abs(best - label.size() / 2)))
            best = i;
    }
    return best < 0 ? QString() : label.left(best) + QLatin1Char('\n') + label.mid(best + 1);
}

QSize textSize(const QFont &font, const QString &text)
{
    // The same measure QCustomPlot uses for axis titles.
    return QFontMetrics(font).boundingRect(0, 0, 0, 0, Qt::TextDontClip, text).size();
}

// Picks the first title that fits `length` (full, full on two lines, short,
// short on two lines), shrinking the font to the minimum before eliding.
void fitAxisTitle(QCPAxis *axis, const QString &full, int length)
{
    if (full.isEmpty() || length <= 0)
        return;
    const QString shortLabel = axis->property(ShortLabelProperty).toString();
    QStringList candidates{full, twoLines(full)};
    if (!shortLabel.isEmpty())
        candidates << shortLabel << twoLines(shortLabel);
    candidates.removeAll(QString());
    QFont font = axis->labelFont();
    for (double pt = font.pointSizeF(); pt >= FigureLayout::MinPointSize - 1e-9; pt -= 0.5) {
        font.setPointSizeF(pt);
        for (const QString &c : std::as_const(candidates)) {
            if (textSize(font, c).width() <= length) {
                axis->setLabelFont(font);
                axis->setSelectedLabelFont(font);
                axis->setLabel(c);
                return;
            }
        }
    }
    font.setPointSizeF(FigureLayout::MinPointSize);
    axis->setLabelFont(font);
    axis->setSelectedLabelFont(font);
    const QString base = shortLabel.isEmpty() ? full : shortLabel;
    axis->setLabel(QFontMetrics(font).elidedText(base, Qt::ElideRight, length));
}

// How far the outermost tick labels of `axis` reach past the page.
QMargins tickLabelOverflow(QCPAxis *axis, const QRect &page)
{
    QMargins overflow;
    if (!axis->visible() || !axis->tickLabels())
        return overflow;
    QVector<double> ticks;
    QVector<QString> labels;
    const QString format = axis->numberFormat();
    axis->ticker()->generate(axis->range(), axis->parentPlot()->locale(), format.isEmpty() ? QLatin1Char('g') : format.at(0),
                             axis->numberPrecision(), ticks, nullptr, &labels);
    const QFontMetrics fm(axis->tickLabelFont());
    for (qsizetype i = 0; i < ticks.size() && i < labels.size(); ++i) {
        const double px = axis->coordToPixel(ticks.at(i));
        const QSize s = fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip, labels.at(i)).size();
        if (axis->orientation() == Qt::Horizontal) {
            overflow.setLeft(std::max(overflow.left(), int(std::ceil(page.left() - (px - s.width() / 2.0))) + 1));
            overflow.setRight(std::max(overflow.right(), int(std::ceil(px + s.width() / 2.0 - page.right())) + 1));
        } else {
            overflow.setTop(std::max(overflow.top(), int(std::ceil(page.top() - (px - s.height() / 2.0))) + 1));
            overflow.setBottom(std::max(overflow.bottom(), int(std::ceil(px + s.height() / 2.0 - page.bottom())) + 1));
        }
    }
    return overflow;
}
} // namespace

void FigureLayout::setShortName(QCPAbstractPlottable *plottable, const QString &shortName)
{
    plottable->setProperty(ShortNameProperty, shortName);
}

void FigureLayout::setShortLabel(QCPAxis *axis, const QString &shortLabel)
{
    axis->setProperty(ShortLabelProperty, shortLabel);
}

void FigureLayout::setIntegerAxis(QCPAxis *axis)
{
    if (!isIntegerAxis(axis))
        axis->setTicker(QSharedPointer<IntegerTicker>::create());
}

bool FigureLayout::isIntegerAxis(const QCPAxis *axis)
{
    return dynamic_cast<const IntegerTicker *>(axis->ticker().data()) != nullptr;
}

FigureLayout::Fonts FigureLayout::fontsFor(const QSizeF &sizeMm)
{
    // Single-column figures (up to ~120 mm wide) get the smaller set.
    if (sizeMm.width() < 120 || sizeMm.height() < 70)
        return {7.0, 7.5, 7.0, 6.0};
    return {8.0, 9.0, 8.0, 6.5};
}

void FigureLayout::apply(QCustomPlot *plot, const QSizeF &logicalSize)
{
    const QSize size = logicalSize.toSize();
    const QRect page(QPoint(0, 0), size);
    const QSizeF mm = logicalSize / LogicalDpi * MmPerInch;
    const Fonts fonts = fontsFor(mm);
    const QFont base = plot->font();
    QCPAxisRect *rect = plot->axisRect();

    // Fonts, ticks and paddings for the final size.
    QList<std::pair<QCPAxis *, QString>> titles;
    for (QCPAxis *axis : rect->axes()) {
        axis->setTickLabelFont(sized(axis->tickLabelFont(), fonts.tick));
        axis->setSelectedTickLabelFont(sized(axis->selectedTickLabelFont(), fonts.tick));
        axis->setLabelFont(sized(axis->labelFont(), fonts.label));
        axis->setSelectedLabelFont(sized(axis->selectedLabelFont(), fonts.label));
        axis->setLabelPadding(3);
        axis->setTickLabelPadding(3);
        axis->setPadding(2);
        axis->setTickLength(4, 0);
        axis->setSubTickLength(2, 0);
        const double extentMm = axis->orientation() == Qt::Horizontal ? mm.width() : mm.height();
        axis->ticker()->setTickCount(std::clamp(int(extentMm / 16), 3, 8));
        titles.append({axis, axis->label()});
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            text->setFont(sized(text->font(), fonts.annotation));
    }

    // The legend leaves the data area for a band above it, with short names
    // in as many columns as the width takes.
    QCPLegend *legend = plot->legend;
    if (legend->visible() && legend->itemCount() > 0) {
        for (int i = 0; i < plot->plottableCount(); ++i) {
            QCPAbstractPlottable *p = plot->plottable(i);
            const QString shortName = p->property(ShortNameProperty).toString();
            if (!shortName.isEmpty())
                p->setName(shortName);
        }
        legend->setFont(sized(base, fonts.legend));
        legend->setSelectedFont(sized(base, fonts.legend));
        for (int i = 0; i < legend->itemCount(); ++i) {
            legend->item(i)->setFont(sized(base, fonts.legend));
            legend->item(i)->setSelectedFont(sized(base, fonts.legend));
        }
        legend->setIconSize(14, 8);
        legend->setIconTextPadding(4);
        legend->setBorderPen(Qt::NoPen);
        legend->setBrush(Qt::NoBrush);
        legend->setMargins(QMargins(2, 1, 2, 1));
        legend->setRowSpacing(0);
        legend->setColumnSpacing(10);
        if (legend->layout() != plot->plotLayout()) {
            if (auto *inset = qobject_cast<QCPLayoutInset *>(legend->layout()))
                inset->take(legend);
            plot->plotLayout()->insertRow(0);
            plot->plotLayout()->addElement(0, 0, legend);
            plot->plotLayout()->setRowSpacing(0);
        }
        // Column count: as many of the widest item as fit; long names are
        // elided until the band takes at most a quarter of the height.
        const int available = size.width() - 8;
        auto widestItem = [legend] {
            int w = 0;
            for (int i = 0; i < legend->itemCount(); ++i)
                w = std::max(w, legend->item(i)->minimumOuterSizeHint().width());
            return w;
        };
        auto itemHeight = [legend] {
            int h = 0;
            for (int i = 0; i < legend->itemCount(); ++i)
                h = std::max(h, legend->item(i)->minimumOuterSizeHint().height());
            return h;
        };
        int columns = 1;
        for (int pass = 0; pass < 6; ++pass) {
            const int widest = widestItem() + legend->columnSpacing();
            columns = std::clamp(available / std::max(widest, 1), 1, legend->itemCount());
            const int rows = (legend->itemCount() + columns - 1) / columns;
            if (rows * itemHeight() <= size.height() / 4 && widest <= available)
                break;
            // Too tall or too wide: shorten the longest names.
            const QFontMetrics fm(legend->font());
            const int textRoom = std::max(available / std::max(columns + 1, 2) - legend->iconSize().width() - 12, fm.averageCharWidth() * 6);
            for (int i = 0; i < plot->plottableCount(); ++i) {
                QCPAbstractPlottable *p = plot->plottable(i);
                p->setName(fm.elidedText(p->name(), Qt::ElideRight, textRoom));
            }
        }
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        plot->plotLayout()->setRowStretchFactor(0, 0.001);
    }

    // Axis titles that fit their axis, then tick labels kept on the page.
    rect->setMinimumMargins(QMargins(0, 0, 0, 0));
    layOut(plot, size);
    for (const auto &[axis, title] : std::as_const(titles)) {
        if (axis->visible())
            fitAxisTitle(axis, title, axis->orientation() == Qt::Horizontal ? rect->width() : rect->height());
    }
    layOut(plot, size);
    for (int pass = 0; pass < 2; ++pass) {
        QMargins grow;
        for (QCPAxis *axis : rect->axes()) {
            const QMargins o = tickLabelOverflow(axis, page.adjusted(1, 1, -1, -1));
            grow = QMargins(std::max(grow.left(), o.left()), std::max(grow.top(), o.top()), std::max(grow.right(), o.right()),
                            std::max(grow.bottom(), o.bottom()));
        }
        if (grow.isNull() || (grow.left() <= 0 && grow.top() <= 0 && grow.right() <= 0 && grow.bottom() <= 0))
            break;
        const QMargins now = rect->margins();
        rect->setMinimumMargins(QMargins(now.left() + std::max(grow.left(), 0), now.top() + std::max(grow.top(), 0),
                                         now.right() + std::max(grow.right(), 0), now.bottom() + std::max(grow.bottom(), 0)));
        layOut(plot, size);
        for (const auto &[axis, title] : std::as_const(titles)) {
            if (axis->visible())
                fitAxisTitle(axis, title, axis->orientation() == Qt::Horizontal ? rect->width() : rect->height());
        }
        layOut(plot, size);
    }
}

void FigureLayout::paint(QCustomPlot *plot, QPainter &painter, const QRectF &area)
{
    const PlotState state(plot);
    apply(plot, area.size());
    painter.save();
    painter.translate(area.topLeft());
    // FigureExport always paints through a QCPPainter (see figureexport.h).
    plot->toPainter(static_cast<QCPPainter *>(&painter), int(area.width()), int(area.height()));
    painter.restore();
    state.restore(plot);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

FigureExport::Painter FigureLayout::painterFor(QCustomPlot *plot)
{
    return [plot](QPainter &painter, const QRectF &area) { paint(plot, painter, area); };
}

FigureExport::Painter FigureLayout::paperPainterFor(QCustomPlot *plot, bool dark, std::function<void(bool dark)> restyle)
{
    FigureExport::Painter paint = painterFor(plot);
    if (!dark)
        return paint;
    return [paint, restyle = std::move(restyle)](QPainter &p, const QRectF &area) {
        restyle(false);
        paint(p, area);
        restyle(true);
    };
}

} // namespace dreamrsi
