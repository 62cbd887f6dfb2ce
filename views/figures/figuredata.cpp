#include "figuredata.h"

#include <QPointF>

namespace dreamrsi::FigureData {

namespace {

/// The shortest text that reads back to the same double.
QString number(double x)
{
    for (int precision = 6; precision < 17; ++precision) {
        const QString text = QString::number(x, 'g', precision);
        if (text.toDouble() == x)
            return text;
    }
    return QString::number(x, 'g', 17);
}

QString optionalNumber(const std::optional<double> &x)
{
    return x ? number(*x) : QString();
}

} // namespace

FigureTable frontier(const QList<FrontierSeries> &series)
{
    FigureTable t;
    t.header = {QStringLiteral("version"),      QStringLiteral("world"),       QStringLiteral("beta"),
                QStringLiteral("calls"),        QStringLiteral("rounds"),      QStringLiteral("best_score"),
                QStringLiteral("attainment"),   QStringLiteral("on_staircase"), QStringLiteral("world_hypervolume"),
                QStringLiteral("world_penalty"), QStringLiteral("world_value"), QStringLiteral("error")};
    for (const FrontierSeries &s : series) {
        if (!s.result)
            continue;
        for (const SweepResult &w : s.result->worlds) {
            QList<QPointF> points;
            for (const EpisodeResult &e : w.episodes)
                points.append({double(e.calls), e.attainment});
            const QList<QPointF> stairs = PlotStyle::staircase(points);
            for (const EpisodeResult &e : w.episodes) {
                const bool onStairs = stairs.contains(QPointF(double(e.calls), e.attainment));
                t.rows.append({s.name, w.world, number(e.beta), QString::number(e.calls), QString::number(e.rounds),
                               number(e.best), number(e.attainment), onStairs ? QStringLiteral("1") : QStringLiteral("0"),
                               optionalNumber(w.hypervolume), optionalNumber(w.penalty), optionalNumber(w.value), e.error});
            }
        }
    }
    return t;
}

FigureTable anytime(const QList<AnytimeSeries> &series)
{
    FigureTable t;
    t.header = {QStringLiteral("series"), QStringLiteral("calls"), QStringLiteral("best_so_far_attainment")};
    for (const AnytimeSeries &s : series) {
        for (const CurvePoint &p : s.curve)
            t.rows.append({s.name, QString::number(p.calls), number(p.attainment)});
    }
    return t;
}

FigureTable tree(const QString &world, const DiscoveryTree &tree)
{
    FigureTable t;
    t.header = {QStringLiteral("world"), QStringLiteral("id"),    QStringLiteral("branch"),    QStringLiteral("attempt"),
                QStringLiteral("seq"),   QStringLiteral("score"), QStringLiteral("fail_class")};
    for (const Cell &c : tree.cells()) {
        t.rows.append({world, c.id, QString::number(c.branch), QString::number(c.attempt), QString::number(c.seq),
                       optionalNumber(c.score), c.failClass});
    }
    return t;
}

FigureTable progress(const QList<ProgressCurve> &curves)
{
    FigureTable t;
    t.header = {QStringLiteral("run"),         QStringLiteral("row"),   QStringLiteral("iteration"),
                QStringLiteral("calls"),       QStringLiteral("best_so_far"), QStringLiteral("iteration_calls")};
    for (const ProgressCurve &c : curves) {
        for (const ProgressPoint &p : c.points)
            t.rows.append({c.label, QStringLiteral("step"), QString(), QString::number(p.calls), number(p.best), QString()});
        for (const IterationMark &m : c.marks)
            t.rows.append({c.label, QStringLiteral("iteration_start"), QString::number(m.index),
                           QString::number(m.startCalls), optionalNumber(m.bestAfter), QString::number(m.calls)});
    }
    return t;
}

} // namespace dreamrsi::FigureData
