// What a figure laid out for paper must keep, checked the same way for every
// figure kind: the rectangles of its text as QCustomPlot places them, in
// every panel (axis rect), and the problems they show.
#pragma once

#include "figures/figurelayout.h"
#include "figures/qcp.h"
#include "project/projectsimulations.h"

#include <QFontMetrics>
#include <QMap>
#include <QSet>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace dreamrsi::figuretest {

inline QString describe(const QRect &r)
{
    return QStringLiteral("(%1,%2 %3×%4)").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

/// One piece of text around the panels. `what` starts with its role: "tick
/// label", "axis title", "legend" (the band) or "legend item".
struct TextBox
{
    QString what;
    QRect rect;
    int panel = 0;
};

/// The text of every panel: tick labels beside their axis, axis titles at
/// the outer edge of the margin, the legend where the layout put it.
inline QList<TextBox> textBoxes(QCustomPlot *plot)
{
    QList<TextBox> boxes;
    const QList<QCPAxisRect *> rects = plot->axisRects();
    for (qsizetype panel = 0; panel < rects.size(); ++panel) {
        QCPAxisRect *ar = rects.at(panel);
        const QRect data = ar->rect();
        const QRect outer = ar->outerRect();
        for (QCPAxis *axis : ar->axes()) {
            if (!axis->visible())
                continue;
            if (axis->axisType() != QCPAxis::atBottom && axis->axisType() != QCPAxis::atLeft)
                continue; // the figures use the bottom and left axes only
            const bool horizontal = axis->orientation() == Qt::Horizontal;
            if (axis->tickLabels()) {
                QVector<double> ticks;
                QVector<QString> labels;
                axis->ticker()->generate(axis->range(), plot->locale(), axis->numberFormat().at(0), axis->numberPrecision(), ticks,
                                         nullptr, &labels);
                const QFontMetrics fm(axis->tickLabelFont());
                const int gap = axis->tickLengthOut() + axis->tickLabelPadding();
                for (qsizetype i = 0; i < ticks.size(); ++i) {
                    if (!axis->range().contains(ticks.at(i)))
                        continue;
                    const double px = axis->coordToPixel(ticks.at(i));
                    const QSize s = fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip, labels.at(i)).size();
                    const QRect r = horizontal ? QRect(int(px - s.width() / 2.0), data.bottom() + 1 + gap, s.width(), s.height())
                                               : QRect(data.left() - gap - s.width(), int(px - s.height() / 2.0), s.width(), s.height());
                    boxes.append({QStringLiteral("tick label '%1' (panel %2)").arg(labels.at(i)).arg(panel), r, int(panel)});
                }
            }
            if (!axis->label().isEmpty()) {
                const QSize s = QFontMetrics(axis->labelFont()).boundingRect(0, 0, 0, 0, Qt::TextDontClip, axis->label()).size();
                const QRect r = horizontal
                                    ? QRect(data.center().x() - s.width() / 2, outer.bottom() - axis->padding() - s.height(), s.width(), s.height())
                                    : QRect(outer.left() + axis->padding(), data.center().y() - s.width() / 2, s.height(), s.width());
                boxes.append({QStringLiteral("axis title '%1' (panel %2)").arg(axis->label()).arg(panel), r, int(panel)});
            }
        }
    }
    if (plot->legend->visible() && plot->legend->itemCount() > 0) {
        boxes.append({QStringLiteral("legend"), plot->legend->outerRect(), -1});
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            boxes.append({QStringLiteral("legend item %1").arg(i), plot->legend->item(i)->outerRect(), -1});
    }
    return boxes;
}

/// The point sizes of each role of text, across all panels.
inline QMap<QString, QSet<double>> sizesByRole(QCustomPlot *plot)
{
    QMap<QString, QSet<double>> sizes;
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPAxis *axis : rect->axes()) {
            if (!axis->visible())
                continue;
            if (axis->tickLabels())
                sizes[QStringLiteral("tick labels")].insert(axis->tickLabelFont().pointSizeF());
            if (!axis->label().isEmpty())
                sizes[QStringLiteral("axis titles")].insert(axis->labelFont().pointSizeF());
        }
    }
    if (plot->legend->visible()) {
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            sizes[QStringLiteral("legend")].insert(plot->legend->item(i)->font().pointSizeF());
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            sizes[QStringLiteral("annotations")].insert(text->font().pointSizeF());
    }
    return sizes;
}

/// Everything wrong with a plot laid out on `page`: text off the page,
/// text over a panel's data, two pieces of text overlapping (tick labels
/// included), an elided axis title, a role of text in more than one size or
/// outside 6–9 pt, panels overlapping. Empty when the figure is right.
inline QStringList layoutProblems(QCustomPlot *plot, const QRect &page)
{
    QStringList problems;
    QList<QRect> panels;
    for (QCPAxisRect *rect : plot->axisRects())
        panels.append(rect->rect());
    for (qsizetype i = 0; i < panels.size(); ++i) {
        if (!page.contains(panels.at(i)))
            problems << QStringLiteral("panel %1 off the page: %2").arg(i).arg(describe(panels.at(i)));
        for (qsizetype j = i + 1; j < panels.size(); ++j) {
            if (panels.at(i).intersects(panels.at(j)))
                problems << QStringLiteral("panels %1 and %2 overlap").arg(i).arg(j);
        }
    }
    const QList<TextBox> boxes = textBoxes(plot);
    for (qsizetype i = 0; i < boxes.size(); ++i) {
        const TextBox &b = boxes.at(i);
        if (!page.contains(b.rect))
            problems << b.what + QStringLiteral(" cut off by the page edge: ") + describe(b.rect);
        for (qsizetype p = 0; p < panels.size(); ++p) {
            if (b.rect.intersects(panels.at(p)))
                problems << b.what + QStringLiteral(" over the data of panel %1: ").arg(p) + describe(b.rect);
        }
        if (b.what.startsWith(QLatin1String("axis title")) && b.what.contains(QChar(0x2026)))
            problems << b.what + QStringLiteral(" is elided");
        for (qsizetype j = i + 1; j < boxes.size(); ++j) {
            const TextBox &o = boxes.at(j);
            // The legend band holds its items.
            if (b.what == QLatin1String("legend") && o.what.startsWith(QLatin1String("legend item")))
                continue;
            if (b.rect.intersects(o.rect))
                problems << b.what + QStringLiteral(" overlaps ") + o.what;
        }
    }
    // Annotations (β labels, iteration labels) whole inside the panel that clips them.
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot->item(i));
        if (!text || !text->clipToAxisRect() || !text->clipAxisRect())
            continue;
        const QRect r = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).toAlignedRect();
        if (!text->clipAxisRect()->rect().adjusted(-1, -1, 1, 1).contains(r.adjusted(1, 1, -1, -1)))
            problems << QStringLiteral("annotation '%1' cut by its panel: %2").arg(text->text(), describe(r));
    }
    if (plot->legend->visible()) {
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            QCPAbstractLegendItem *item = plot->legend->item(i);
            if (item->minimumOuterSizeHint().width() > item->outerRect().width() + 1)
                problems << QStringLiteral("legend item %1 cut").arg(i);
        }
    }
    const QMap<QString, QSet<double>> sizes = sizesByRole(plot);
    for (auto it = sizes.cbegin(); it != sizes.cend(); ++it) {
        QStringList points;
        for (double pt : it.value()) {
            points << QString::number(pt);
            if (pt < FigureLayout::MinPointSize || pt > FigureLayout::MaxPointSize)
                problems << QStringLiteral("%1 at %2 pt").arg(it.key()).arg(pt);
        }
        if (it.value().size() > 1)
            problems << QStringLiteral("%1 in %2 sizes: %3 pt").arg(it.key()).arg(it.value().size()).arg(points.join(QStringLiteral(", ")));
    }
    return problems;
}

/// A counterfactual run of two arms over six iterations whose attainment
/// bands reach past 1 and overlap, with cumulative calls up to about 215:
/// the figure that broke at 85 × 60 mm.
inline SimulationCurves overlappingArms()
{
    SimulationCurves curves;
    SimulationArmCurve dream{QStringLiteral("dream"), 5, {}, {}, {}, {}, {}};
    SimulationArmCurve fixed{QStringLiteral("fixed"), 5, {}, {}, {}, {}, {}};
    for (int t = 1; t <= 6; ++t) {
        dream.iterations.append(t);
        fixed.iterations.append(t);
        dream.attainmentMean.append(std::min(0.995, 0.90 + 0.02 * t));
        dream.attainmentCi95.append(0.05);
        fixed.attainmentMean.append(0.90 + 0.012 * t);
        fixed.attainmentCi95.append(0.06);
        dream.callsMean.append(32.0 * t);
        dream.callsCi95.append(6.0 + t);
        fixed.callsMean.append(34.0 * t);
        fixed.callsCi95.append(4.0);
    }
    curves.arms = {dream, fixed};
    return curves;
}

/// overlappingArms() as `dreamrsi loop --worlds --json` prints it: five
/// repeats per arm whose means are those above (the spreads differ).
inline QByteArray overlappingArmsJson()
{
    QByteArray runs;
    const SimulationCurves c = overlappingArms();
    const double spread[] = {-2, -1, 0, 1, 2};
    for (const SimulationArmCurve &arm : c.arms) {
        for (double s : spread) {
            QByteArray its;
            for (qsizetype t = 0; t < arm.iterations.size(); ++t) {
                const double a = std::clamp(arm.attainmentMean.at(t) + s * 0.02, 0.0, 1.0);
                its += (its.isEmpty() ? "" : ",") + QStringLiteral("{\"cumulative_calls\": %1, \"attainment\": %2}")
                                                         .arg(arm.callsMean.at(t) + s * 3)
                                                         .arg(a)
                                                         .toUtf8();
            }
            runs += (runs.isEmpty() ? "" : ",") + QStringLiteral("{\"arm\": \"%1\", \"iterations\": [").arg(arm.arm).toUtf8() + its + "]}";
        }
    }
    return "{\"runs\": [" + runs + "], \"summary\": {}}";
}

} // namespace dreamrsi::figuretest
