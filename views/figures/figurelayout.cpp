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

QFont sized(QFont font, double points)
{
    font.setPointSizeF(points);
    return font;
}

// The axes of every panel (axis rect) of the plot.
QList<QCPAxis *> allAxes(QCustomPlot *plot)
{
    QList<QCPAxis *> axes;
    for (QCPAxisRect *rect : plot->axisRects())
        axes += rect->axes();
    return axes;
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
        QCPAxisTicker::TickStepStrategy tickStepStrategy;
        bool tickLabels;
        double tickLabelRotation;
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
    QList<std::pair<QCPAxisRect *, QMargins>> minimumMargins;

    explicit PlotState(QCustomPlot *plot)
    {
        viewport = plot->viewport();
        for (QCPAxis *a : allAxes(plot)) {
            axes.append({a, a->labelFont(), a->tickLabelFont(), a->selectedLabelFont(), a->selectedTickLabelFont(), a->label(),
                         a->labelPadding(), a->tickLabelPadding(), a->padding(), a->tickLengthIn(), a->tickLengthOut(),
                         a->subTickLengthIn(), a->subTickLengthOut(), a->ticker()->tickCount(), a->ticker()->tickStepStrategy(),
                         a->tickLabels(), a->tickLabelRotation()});
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
        for (QCPAxisRect *rect : plot->axisRects())
            minimumMargins.append({rect, rect->minimumMargins()});
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
            a.axis->ticker()->setTickStepStrategy(a.tickStepStrategy);
            a.axis->setTickLabels(a.tickLabels);
            a.axis->setTickLabelRotation(a.tickLabelRotation);
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
        for (const auto &[rect, margins] : minimumMargins)
            rect->setMinimumMargins(margins);
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

// The titles an axis may show, best first: full, full on two lines, short,
// short on two lines.
QStringList titleCandidates(const QCPAxis *axis, const QString &full)
{
    const QString shortLabel = axis->property(ShortLabelProperty).toString();
    QStringList candidates{full, twoLines(full)};
    if (!shortLabel.isEmpty())
        candidates << shortLabel << twoLines(shortLabel);
    candidates.removeAll(QString());
    return candidates;
}

// The room an axis title has: the length of its axis.
int titleRoom(const QCPAxis *axis)
{
    return axis->orientation() == Qt::Horizontal ? axis->axisRect()->width() : axis->axisRect()->height();
}

// The largest point size, from `start` down to the minimum in half points,
// at which one of the candidates fits `length`; 0 when none fits at all.
double largestFittingSize(QFont font, const QStringList &candidates, int length, double start)
{
    for (double pt = start; pt >= FigureLayout::MinPointSize - 1e-9; pt -= 0.5) {
        font.setPointSizeF(pt);
        for (const QString &c : candidates) {
            if (textSize(font, c).width() <= length)
                return pt;
        }
    }
    return 0.0;
}

// Gives every axis title of the figure one point size, the largest at which
// each title fits its axis in one of its forms (full, two lines, short), and
// picks the first form that fits at that size. A title that fits in no form
// even at the minimum size is elided: the last resort.
void fitAxisTitles(const QList<std::pair<QCPAxis *, QString>> &titles, double start)
{
    double common = start;
    for (const auto &[axis, full] : titles) {
        if (!axis->visible() || full.isEmpty())
            continue;
        const double fits = largestFittingSize(axis->labelFont(), titleCandidates(axis, full), titleRoom(axis), start);
        common = std::min(common, fits > 0 ? fits : FigureLayout::MinPointSize);
    }
    for (const auto &[axis, full] : titles) {
        if (!axis->visible() || full.isEmpty())
            continue;
        QFont font = axis->labelFont();
        font.setPointSizeF(common);
        axis->setLabelFont(font);
        axis->setSelectedLabelFont(font);
        const int length = std::max(titleRoom(axis), 1);
        const QStringList candidates = titleCandidates(axis, full);
        const auto fitting = std::find_if(candidates.cbegin(), candidates.cend(),
                                          [&](const QString &c) { return textSize(font, c).width() <= length; });
        if (fitting != candidates.cend()) {
            axis->setLabel(*fitting);
        } else {
            const QString shortLabel = axis->property(ShortLabelProperty).toString();
            axis->setLabel(QFontMetrics(font).elidedText(shortLabel.isEmpty() ? full : shortLabel, Qt::ElideRight, length));
        }
    }
}

// A tick label of an axis: its position along the axis and its size.
struct TickLabel
{
    double px;
    QSize size;
};

QList<TickLabel> tickLabelsOf(QCPAxis *axis)
{
    QList<TickLabel> out;
    if (!axis->visible() || !axis->tickLabels())
        return out;
    QVector<double> ticks;
    QVector<QString> labels;
    const QString format = axis->numberFormat();
    axis->ticker()->generate(axis->range(), axis->parentPlot()->locale(), format.isEmpty() ? QLatin1Char('g') : format.at(0),
                             axis->numberPrecision(), ticks, nullptr, &labels);
    const QFontMetrics fm(axis->tickLabelFont());
    for (qsizetype i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (!axis->range().contains(ticks.at(i)))
            continue;
        out.append({axis->coordToPixel(ticks.at(i)), fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip, labels.at(i)).size()});
    }
    return out;
}

// Whether two neighbouring tick labels of `axis` touch: along a horizontal
// axis they need a space between them, along a vertical one a quarter line.
bool tickLabelsCrowded(QCPAxis *axis)
{
    QList<TickLabel> labels = tickLabelsOf(axis);
    std::sort(labels.begin(), labels.end(), [](const TickLabel &a, const TickLabel &b) { return a.px < b.px; });
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    const QFontMetrics fm(axis->tickLabelFont());
    const double gap = horizontal ? fm.horizontalAdvance(QLatin1Char(' ')) : fm.height() / 4.0;
    const double turned = std::abs(axis->tickLabelRotation()) * M_PI / 180.0;
    for (qsizetype i = 1; i < labels.size(); ++i) {
        const TickLabel &a = labels.at(i - 1), &b = labels.at(i);
        if (horizontal && turned > 0.01) {
            // Turned labels are parallel strips: apart when the tick spacing
            // across them exceeds the text's height and a quarter line.
            if ((b.px - a.px) * std::sin(turned) < std::max(a.size.height(), b.size.height()) + fm.height() / 4.0)
                return true;
            continue;
        }
        const double half = horizontal ? (a.size.width() + b.size.width()) / 2.0 : (a.size.height() + b.size.height()) / 2.0;
        if (b.px - a.px < half + gap)
            return true;
    }
    return false;
}

// Fewer ticks until the labels of `axis` stand apart; named ticks (a text
// ticker: every name is needed) are turned instead, steeper until they do.
void thinTicks(QCPAxis *axis)
{
    const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
    if (ticker.dynamicCast<QCPAxisTickerText>()) {
        for (const double angle : {-30.0, -60.0, -90.0}) {
            if (!tickLabelsCrowded(axis) || axis->orientation() != Qt::Horizontal)
                break;
            if (std::abs(axis->tickLabelRotation()) < std::abs(angle))
                axis->setTickLabelRotation(angle);
        }
        return;
    }
    while (tickLabelsCrowded(axis)) {
        if (ticker->tickCount() > 2) {
            ticker->setTickCount(ticker->tickCount() - 1);
        } else if (ticker->tickStepStrategy() != QCPAxisTicker::tssMeetTickCount) {
            ticker->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
        } else {
            break;
        }
    }
}

// How far the outermost tick labels of `axis` reach past the page.
QMargins tickLabelOverflow(QCPAxis *axis, const QRect &page)
{
    QMargins overflow;
    for (const TickLabel &t : tickLabelsOf(axis)) {
        if (axis->orientation() == Qt::Horizontal) {
            overflow.setLeft(std::max(overflow.left(), int(std::ceil(page.left() - (t.px - t.size.width() / 2.0))) + 1));
            overflow.setRight(std::max(overflow.right(), int(std::ceil(t.px + t.size.width() / 2.0 - page.right())) + 1));
        } else {
            overflow.setTop(std::max(overflow.top(), int(std::ceil(page.top() - (t.px - t.size.height() / 2.0))) + 1));
            overflow.setBottom(std::max(overflow.bottom(), int(std::ceil(t.px + t.size.height() / 2.0 - page.bottom())) + 1));
        }
    }
    return overflow;
}

// The rectangles of the tick labels of `axis` as QCustomPlot places them.
QList<QRect> tickLabelRects(QCPAxis *axis)
{
    QList<QRect> rects;
    const QRect data = axis->axisRect()->rect();
    const int gap = axis->tickLengthOut() + axis->tickLabelPadding();
    for (const TickLabel &t : tickLabelsOf(axis)) {
        const QSize s = t.size;
        if (axis->axisType() == QCPAxis::atBottom)
            rects.append(QRect(int(t.px - s.width() / 2.0), data.bottom() + 1 + gap, s.width(), s.height()));
        else if (axis->axisType() == QCPAxis::atLeft)
            rects.append(QRect(data.left() - gap - s.width(), int(t.px - s.height() / 2.0), s.width(), s.height()));
    }
    return rects;
}

// Where the bottom axis's first tick labels meet the left axis's lowest
// ones (both at the corner of a panel), moves the left axis's labels away
// by the overlap.
void separateCornerLabels(QCPAxisRect *rect)
{
    QCPAxis *x = rect->axis(QCPAxis::atBottom), *y = rect->axis(QCPAxis::atLeft);
    if (!x || !y)
        return;
    int overlap = 0;
    const QList<QRect> ys = tickLabelRects(y);
    for (const QRect &a : tickLabelRects(x)) {
        for (const QRect &b : ys) {
            if (a.intersects(b))
                overlap = std::max(overlap, b.right() - a.left() + 2);
        }
    }
    if (overlap > 0)
        y->setTickLabelPadding(y->tickLabelPadding() + overlap);
}

// Ticks for the length each axis got: one per 16 mm, at least 3, at most 8
// (a counting axis of up to eight whole numbers, such as iterations, a tick
// on each), then fewer where the labels would touch.
void setTickCounts(QCustomPlot *plot)
{
    const double MmPerPixel = FigureExport::MmPerInch / FigureExport::logicalDpi();
    for (QCPAxis *axis : allAxes(plot)) {
        const int length = axis->orientation() == Qt::Horizontal ? axis->axisRect()->width() : axis->axisRect()->height();
        int count = std::clamp(int(length * MmPerPixel / 16), 3, 8);
        if (FigureLayout::isIntegerAxis(axis) && axis->range().size() <= 8)
            count = std::max(count, int(std::ceil(axis->range().size())));
        axis->ticker()->setTickCount(count);
        axis->ticker()->setTickStepStrategy(QCPAxisTicker::tssReadability);
        thinTicks(axis);
    }
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
    const QSizeF mm = logicalSize / FigureExport::logicalDpi() * FigureExport::MmPerInch;
    const Fonts fonts = fontsFor(mm);
    const QFont base = plot->font();
    const QList<QCPAxisRect *> rects = plot->axisRects();

    // Fonts, ticks and paddings for the final size, the same in every panel.
    QList<std::pair<QCPAxis *, QString>> titles;
    for (QCPAxis *axis : allAxes(plot)) {
        axis->setTickLabelFont(sized(axis->tickLabelFont(), fonts.tick));
        axis->setSelectedTickLabelFont(sized(axis->selectedTickLabelFont(), fonts.tick));
        axis->setLabelFont(sized(axis->labelFont(), fonts.label));
        axis->setSelectedLabelFont(sized(axis->selectedLabelFont(), fonts.label));
        axis->setLabelPadding(3);
        axis->setTickLabelPadding(3);
        axis->setPadding(2);
        axis->setTickLength(4, 0);
        axis->setSubTickLength(2, 0);
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
        // The band takes the height its entries need; the panels share the rest.
        plot->plotLayout()->setRowStretchFactor(0, 0.001);
    }

    // Ticks for each axis's length, axis titles that fit their axis, then
    // tick labels kept on the page. Panels side by side or stacked share
    // their margins (QCPMarginGroup), so left and right grow alike in all.
    for (QCPAxisRect *rect : rects)
        rect->setMinimumMargins(QMargins(0, 0, 0, 0));
    for (QCPAxis *axis : allAxes(plot))
        axis->ticker()->setTickCount(std::clamp(int((axis->orientation() == Qt::Horizontal ? mm.width() : mm.height()) / 16), 3, 8));
    layOut(plot, size);
    setTickCounts(plot);
    fitAxisTitles(titles, fonts.label);
    layOut(plot, size);
    for (int pass = 0; pass < 3; ++pass) {
        setTickCounts(plot);
        for (QCPAxis *axis : allAxes(plot))
            axis->setTickLabelPadding(3);
        layOut(plot, size);
        for (QCPAxisRect *rect : rects)
            separateCornerLabels(rect);
        layOut(plot, size);
        QList<QMargins> grows;
        int left = 0, right = 0;
        for (QCPAxisRect *rect : rects) {
            QMargins grow;
            // Tick labels stay in their panel's outer rectangle, clear of
            // the legend band and of the other panels, and on the page.
            const QRect room = rect->outerRect().intersected(page.adjusted(1, 1, -1, -1));
            for (QCPAxis *axis : rect->axes()) {
                const QMargins o = tickLabelOverflow(axis, room);
                grow = QMargins(std::max(grow.left(), o.left()), std::max(grow.top(), o.top()), std::max(grow.right(), o.right()),
                                std::max(grow.bottom(), o.bottom()));
            }
            left = std::max(left, grow.left());
            right = std::max(right, grow.right());
            grows.append(grow);
        }
        bool grew = false;
        for (qsizetype i = 0; i < rects.size(); ++i) {
            const QMargins g(std::max(left, 0), std::max(grows.at(i).top(), 0), std::max(right, 0), std::max(grows.at(i).bottom(), 0));
            if (g.isNull())
                continue;
            grew = true;
            const QMargins now = rects.at(i)->margins();
            rects.at(i)->setMinimumMargins(QMargins(now.left() + g.left(), now.top() + g.top(), now.right() + g.right(),
                                                    now.bottom() + g.bottom()));
        }
        if (!grew)
            break;
        layOut(plot, size);
        fitAxisTitles(titles, fonts.label);
        layOut(plot, size);
    }
    setTickCounts(plot);
    layOut(plot, size);
    for (QCPAxisRect *rect : rects)
        separateCornerLabels(rect);
    layOut(plot, size);
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
