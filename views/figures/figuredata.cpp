#include "figuredata.h"

#include "replay/worldmodel.h"

#include <QJsonArray>
#include <QPointF>

#include <algorithm>

namespace dreamrsi::FigureData {

namespace {

/// The shortest text that reads back to the same double.
QString exactNumber(double x)
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
    return x ? exactNumber(*x) : QString();
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
                t.rows.append({s.name, w.world, exactNumber(e.beta), QString::number(e.calls), QString::number(e.rounds),
                               exactNumber(e.best), exactNumber(e.attainment), onStairs ? QStringLiteral("1") : QStringLiteral("0"),
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
    // Re-evaluated cells (the figure's error bars) in five more columns, on
    // the row of the call whose reveal made each the best so far; the mean
    // and its 95 % interval are over S like the curve.
    const bool anyIntervals =
        std::any_of(series.begin(), series.end(), [](const AnytimeSeries &s) { return !s.intervals.isEmpty(); });
    if (anyIntervals) {
        t.header << QStringLiteral("reevaluated_cell") << QStringLiteral("mean_attainment") << QStringLiteral("ci95_lo")
                 << QStringLiteral("ci95_hi") << QStringLiteral("lucky");
    }
    for (const AnytimeSeries &s : series) {
        for (const CurvePoint &p : s.curve) {
            QStringList row{s.name, QString::number(p.calls), exactNumber(p.attainment)};
            if (anyIntervals) {
                const auto bar = std::find_if(s.intervals.begin(), s.intervals.end(),
                                              [&p](const AnytimeInterval &i) { return i.calls == p.calls; });
                if (bar != s.intervals.end())
                    row << bar->cellId << exactNumber(bar->mean) << exactNumber(bar->low) << exactNumber(bar->high)
                        << (bar->lucky ? QStringLiteral("true") : QStringLiteral("false"));
                else
                    row << QString() << QString() << QString() << QString() << QString();
            }
            t.rows.append(row);
        }
    }
    return t;
}

FigureTable tree(const QString &world, const DiscoveryTree &tree)
{
    FigureTable t;
    t.header = {QStringLiteral("world"), QStringLiteral("id"),    QStringLiteral("branch"),    QStringLiteral("attempt"),
                QStringLiteral("seq"),   QStringLiteral("score"), QStringLiteral("fail_class")};
    bool anyImagined = false;
    for (const Cell &c : tree.cells()) {
        t.rows.append({world, c.id, QString::number(c.branch), QString::number(c.attempt), QString::number(c.seq),
                       optionalNumber(c.score), c.failClass});
        anyImagined = anyImagined || Imagination::isImagined(c);
    }
    if (anyImagined) {
        // A completion: say which cells the model drew.
        t.header.append(QStringLiteral("imagined"));
        for (qsizetype i = 0; i < t.rows.size(); ++i)
            t.rows[i].append(Imagination::isImagined(tree.cells().at(i)) ? QStringLiteral("1") : QStringLiteral("0"));
    }
    return t;
}

FigureTable worldModel(const QJsonObject &model)
{
    FigureTable t;
    t.header = {QStringLiteral("quantity"), QStringLiteral("stratum"), QStringLiteral("attempt"), QStringLiteral("count"),
                QStringLiteral("mean"),     QStringLiteral("min"),     QStringLiteral("max"),     QStringLiteral("failures")};
    auto summary = [](const QJsonArray &values) -> QStringList {
        if (values.isEmpty())
            return {QString(), QString(), QString()};
        double sum = 0, lo = values.first().toDouble(), hi = lo;
        for (const QJsonValue &v : values) {
            sum += v.toDouble();
            lo = std::min(lo, v.toDouble());
            hi = std::max(hi, v.toDouble());
        }
        return {exactNumber(sum / double(values.size())), exactNumber(lo), exactNumber(hi)};
    };
    for (const QJsonValue &sv : model.value(QLatin1String("strata")).toArray()) {
        const QJsonObject s = sv.toObject();
        const QString name = s.value(QLatin1String("stratum")).toString();
        const QJsonArray first = s.value(QLatin1String("first")).toArray();
        t.rows.append(QStringList{QStringLiteral("first_score"), name, QStringLiteral("0"), QString::number(first.size())}
                      + summary(first) + QStringList{QString()});
        for (const QJsonValue &gv : s.value(QLatin1String("gains")).toArray()) {
            const QJsonObject g = gv.toObject();
            const QJsonArray values = g.value(QLatin1String("values")).toArray();
            t.rows.append(QStringList{QStringLiteral("gain"), name, QString::number(g.value(QLatin1String("attempt")).toInt()),
                                      QString::number(values.size())}
                          + summary(values) + QStringList{QString()});
        }
    }
    for (const QJsonValue &fv : model.value(QLatin1String("failures")).toArray()) {
        const QJsonObject f = fv.toObject();
        const QString rate = exactNumber(f.value(QLatin1String("rate")).toDouble());
        t.rows.append({QStringLiteral("failure_rate"), QStringLiteral("*"), QString::number(f.value(QLatin1String("attempt")).toInt()),
                       QString::number(f.value(QLatin1String("trials")).toInt()), rate, QString(), QString(),
                       QString::number(f.value(QLatin1String("failures")).toInt())});
    }
    const QJsonValue cap = model.value(QLatin1String("cap"));
    t.rows.append({QStringLiteral("cap"), QStringLiteral("*"), QString(), QString(), cap.isDouble() ? exactNumber(cap.toDouble()) : QString(),
                   QString(), QString(), QString()});
    return t;
}

FigureTable progress(const QList<ProgressCurve> &curves)
{
    FigureTable t;
    t.header = {QStringLiteral("run"),         QStringLiteral("row"),   QStringLiteral("iteration"),
                QStringLiteral("calls"),       QStringLiteral("best_so_far"), QStringLiteral("iteration_calls")};
    for (const ProgressCurve &c : curves) {
        for (const ProgressPoint &p : c.points)
            t.rows.append({c.label, QStringLiteral("step"), QString(), QString::number(p.calls), exactNumber(p.best), QString()});
        for (const IterationMark &m : c.marks)
            t.rows.append({c.label, QStringLiteral("iteration_start"), QString::number(m.index),
                           QString::number(m.startCalls), optionalNumber(m.bestAfter), QString::number(m.calls)});
    }
    return t;
}

} // namespace dreamrsi::FigureData
