#include "comparecurves.h"

#include "base/sqliteheader.h"
#include "import/runimport.h"
#include "model/attemptpayload.h"
#include "model/meanci.h"
#include "model/treejson.h"
#include "store/projectfiles.h"
#include "store/projectreader.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dreamrsi {

namespace {

using SourceRead = Result<CompareSource>;

/// A cell as compare sees it: scored only when it ran without error.
CompareStep stepOf(const Cell &cell, const QString &scoreMetric)
{
    CompareStep s;
    if (cell.isSuccess()) {
        std::optional<double> value = cell.score;
        if (!scoreMetric.isEmpty()) {
            const QJsonValue v = cell.payload.value(QLatin1String(AttemptPayload::Key::metrics)).toObject().value(scoreMetric);
            value = v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
        }
        if (value && std::isfinite(*value))
            s.score = value;
    }
    const QJsonObject agent = cell.payload.value(QLatin1String(AttemptPayload::Key::agent)).toObject();
    if (agent.value(QLatin1String(AttemptPayload::Agent::costKey)).isDouble())
        s.cost = agent.value(QLatin1String(AttemptPayload::Agent::costKey)).toDouble();
    const QJsonValue iteration = cell.payload.value(QLatin1String("origin")).toObject().value(QLatin1String("iteration"));
    if (iteration.isDouble() && std::isfinite(iteration.toDouble()) && iteration.toDouble() >= 0.0)
        s.iteration = iteration.toDouble();
    const AttemptPayload::Timing timing = AttemptPayload::timingOf(cell);
    if (!timing.ended.isEmpty()) {
        const QDateTime ended = QDateTime::fromString(timing.ended, Qt::ISODateWithMs);
        if (ended.isValid()) {
            s.endedS = double(ended.toMSecsSinceEpoch()) / 1000.0;
            s.wallS = std::max(0.0, timing.wallS);
        }
    }
    return s;
}

/// Adds cells in the order given, noting which axes they recorded.
void append(CompareSource &source, const QList<Cell> &cells, const QString &scoreMetric)
{
    for (const Cell &c : cells) {
        const CompareStep s = stepOf(c, scoreMetric);
        // Costs that are all 0 (the built-in agent, a free local server) are
        // no cost: a USD axis of them would be a single point.
        source.hasCost = source.hasCost || (s.cost && *s.cost > 0.0);
        source.hasTime = source.hasTime || s.endedS.has_value();
        source.steps.append(s);
    }
}

/// Whether some cell has the metric at all (a misspelt --score is an error, not an empty curve).
bool hasMetric(const QList<Cell> &cells, const QString &metric)
{
    for (const Cell &c : cells) {
        if (c.payload.value(QLatin1String(AttemptPayload::Key::metrics)).toObject().value(metric).isDouble())
            return true;
    }
    return false;
}

SourceRead readProject(const CompareSourceSpec &spec, const QString &scoreMetric, CompareSource source)
{
    StoreResult<std::unique_ptr<ProjectReader>> opened = ProjectFiles::openReader(spec.path);
    if (!opened.ok())
        return SourceRead::failure(QStringLiteral("%1: %2").arg(spec.path, opened.error));
    ProjectReader &reader = **opened.value;
    StoreResult<QList<IterationInfo>> list = reader.iterations();
    if (!list.ok())
        return SourceRead::failure(QStringLiteral("%1: %2").arg(spec.path, list.error));
    QList<IterationInfo> ordered = *list.value;
    std::stable_sort(ordered.begin(), ordered.end(), [](const IterationInfo &a, const IterationInfo &b) { return a.id < b.id; });
    QList<Cell> cells;
    int taken = 0;
    for (const IterationInfo &it : std::as_const(ordered)) {
        if (spec.iterations && (it.id < spec.iterations->first || it.id > spec.iterations->second))
            continue;
        StoreResult<IterationData> data = reader.iterationData(it.id);
        if (!data.ok())
            return SourceRead::failure(QStringLiteral("%1: iteration %2: %3").arg(spec.path).arg(it.id).arg(data.error));
        if (it.task && !it.task->isEmpty() && !source.tasks.contains(*it.task))
            source.tasks.append(*it.task);
        QList<Cell> its = std::move(data.value->cells);
        std::stable_sort(its.begin(), its.end(), [](const Cell &a, const Cell &b) { return a.seq < b.seq; });
        cells.append(std::move(its));
        ++taken;
    }
    if (taken == 0) {
        return SourceRead::failure(spec.iterations
                                       ? QStringLiteral("%1: no iteration with an id from %2 to %3")
                                             .arg(spec.path)
                                             .arg(spec.iterations->first)
                                             .arg(spec.iterations->second)
                                       : QStringLiteral("%1: the project has no iterations").arg(spec.path));
    }
    if (!scoreMetric.isEmpty() && !hasMetric(cells, scoreMetric))
        return SourceRead::failure(QStringLiteral("%1: no cell has a numeric metric \"%2\"").arg(spec.path, scoreMetric));
    append(source, cells, scoreMetric);
    return SourceRead::success(std::move(source));
}

SourceRead readTree(const CompareSourceSpec &spec, const QString &scoreMetric, CompareSource source)
{
    const TreeJson::ParseResult parsed = TreeJson::readFile(spec.path);
    if (!parsed.ok())
        return SourceRead::failure(parsed.error.message);
    const QList<Cell> &cells = parsed.tree->cells(); // kept sorted by seq
    if (!scoreMetric.isEmpty() && !hasMetric(cells, scoreMetric))
        return SourceRead::failure(QStringLiteral("%1: no cell has a numeric metric \"%2\"").arg(spec.path, scoreMetric));
    if (const std::optional<QString> &task = parsed.tree->meta().task; task && !task->isEmpty())
        source.tasks.append(*task);
    append(source, cells, scoreMetric);
    return SourceRead::success(std::move(source));
}

SourceRead readRun(const CompareSourceSpec &spec, const QString &scoreMetric, CompareSource source)
{
    Result<RunImport::Imported> imported = RunImport::read(spec.path, RunImport::Options{scoreMetric});
    if (!imported)
        return SourceRead::failure(imported.error);
    source.notes = imported.value->notes;
    source.snapshot = imported.value->snapshot;
    // The import's seq is the run's creation order (docs/tree-format.md#imported-runs);
    // the metric, if any, already scored the cells.
    append(source, imported.value->tree.cells(), QString());
    // OpenEvolve writes `iteration_found` on every program (0 unless the
    // database was told the iteration): it places the survivors only when
    // every cell has it and some are past the initial program's 0.
    source.hasIterations = !source.steps.isEmpty()
                           && std::all_of(source.steps.cbegin(), source.steps.cend(), [](const CompareStep &s) { return s.iteration.has_value(); })
                           && std::any_of(source.steps.cbegin(), source.steps.cend(), [](const CompareStep &s) { return *s.iteration > 0.0; });
    return SourceRead::success(std::move(source));
}

QString num(double v)
{
    return QString::number(v, 'g', 12);
}

} // namespace

QString CompareCurves::axisName(CompareAxis axis)
{
    switch (axis) {
    case CompareAxis::Calls:
        return QStringLiteral("calls");
    case CompareAxis::Usd:
        return QStringLiteral("usd");
    case CompareAxis::Seconds:
        return QStringLiteral("seconds");
    }
    return {};
}

std::optional<CompareAxis> CompareCurves::axisFromName(const QString &name)
{
    for (const CompareAxis a : {CompareAxis::Calls, CompareAxis::Usd, CompareAxis::Seconds}) {
        if (axisName(a) == name)
            return a;
    }
    return std::nullopt;
}

CompareSourceSpec::Kind CompareCurves::kindOf(const QString &path)
{
    if (RunImport::looksLikeRunPath(path))
        return CompareSourceSpec::Kind::Run;
    if (hasSqliteHeader(path))
        return CompareSourceSpec::Kind::Project;
    return CompareSourceSpec::Kind::Tree;
}

QString CompareCurves::nameOf(const CompareSourceSpec &spec)
{
    QString name = spec.kind == CompareSourceSpec::Kind::Run ? RunImport::worldName(spec.path)
                                                             : QFileInfo(spec.path).completeBaseName();
    if (spec.kind == CompareSourceSpec::Kind::Project && spec.iterations)
        name += QStringLiteral(" [%1-%2]").arg(spec.iterations->first).arg(spec.iterations->second);
    return name;
}

Result<CompareSource> CompareCurves::read(const CompareSourceSpec &spec, const QString &scoreMetric)
{
    CompareSource source;
    source.name = nameOf(spec);
    source.label = spec.label.isEmpty() ? source.name : spec.label;
    switch (spec.kind) {
    case CompareSourceSpec::Kind::Project:
        return readProject(spec, scoreMetric, std::move(source));
    case CompareSourceSpec::Kind::Run:
        return readRun(spec, scoreMetric, std::move(source));
    case CompareSourceSpec::Kind::Tree:
        break;
    }
    return readTree(spec, scoreMetric, std::move(source));
}

CompareGap CompareCurves::gapOf(const CompareSource &source, CompareAxis axis)
{
    if (axis == CompareAxis::Usd && !source.hasCost)
        return CompareGap::Cost;
    if (axis == CompareAxis::Seconds && !source.hasTime)
        return CompareGap::Time;
    return CompareGap::Snapshot;
}

QString CompareCurves::snapshotText(const RunImport::PopulationSnapshot &snapshot)
{
    return QStringLiteral("%1 survivors of iterations 0-%2").arg(snapshot.programs).arg(snapshot.lastIteration);
}

QString CompareCurves::snapshotNote(const QString &name, const RunImport::PopulationSnapshot &snapshot, bool refused)
{
    const QString what = QStringLiteral("%1: a population snapshot: %2 holds the %3 programs that survived iterations 0-%4, "
                                        "not every program the run made")
                             .arg(name, snapshot.checkpoint)
                             .arg(snapshot.programs)
                             .arg(snapshot.lastIteration);
    if (!refused)
        return what + QStringLiteral("; drawn against the iteration each was found (iteration_found), not calls");
    const QString history =
        snapshot.history.isEmpty()
            ? QStringLiteral("no db/ with the run's full history beside it (none at %1; OpenEvolve writes every program "
                             "to the folder database.db_path names)")
                  .arg(snapshot.historyPlace)
            : QStringLiteral("the run's full history, every program, is in %1").arg(snapshot.history);
    return what + QStringLiteral("; not every program records the iteration it was found (iteration_found), so there is "
                                 "no curve by calls; %1")
                      .arg(history);
}

std::optional<CompareCurve> CompareCurves::curveOf(const CompareSource &source, CompareAxis axis)
{
    if ((axis == CompareAxis::Usd && !source.hasCost) || (axis == CompareAxis::Seconds && !source.hasTime))
        return std::nullopt;
    if (source.snapshot) {
        // The survivors are no history of calls, costs or time: they are
        // drawn only by calls, against the iteration each was found at.
        if (axis != CompareAxis::Calls || !source.hasIterations)
            return std::nullopt;
        QList<CompareStep> steps = source.steps;
        std::stable_sort(steps.begin(), steps.end(), [](const CompareStep &a, const CompareStep &b) { return *a.iteration < *b.iteration; });
        CompareCurve curve;
        curve.label = source.label;
        curve.name = source.name;
        curve.snapshot = source.snapshot;
        for (const CompareStep &s : std::as_const(steps)) {
            if (s.score && (!curve.best || *s.score > *curve.best))
                curve.best = s.score;
            curve.points.append({*s.iteration, curve.best});
        }
        return curve;
    }
    // Time runs from when the first attempt started: the earliest end less its wall-clock time.
    double start = 0.0;
    bool started = false;
    for (const CompareStep &s : source.steps) {
        if (s.endedS) {
            start = started ? std::min(start, *s.endedS - s.wallS) : *s.endedS - s.wallS;
            started = true;
        }
    }
    CompareCurve curve;
    curve.label = source.label;
    curve.name = source.name;
    curve.points.reserve(source.steps.size());
    double x = 0.0;
    for (qsizetype i = 0; i < source.steps.size(); ++i) {
        const CompareStep &s = source.steps.at(i);
        switch (axis) {
        case CompareAxis::Calls:
            x = double(i + 1);
            break;
        case CompareAxis::Usd:
            x += s.cost.value_or(0.0);
            break;
        case CompareAxis::Seconds:
            // By this time every cell so far had ended (cells of parallel
            // workers end out of creation order); an untimed cell adds nothing.
            if (s.endedS)
                x = std::max(x, *s.endedS - start);
            break;
        }
        if (s.score && (!curve.best || *s.score > *curve.best))
            curve.best = s.score;
        curve.points.append({x, curve.best});
    }
    return curve;
}

CompareResult CompareCurves::compare(const QList<CompareSource> &sources, CompareAxis axis)
{
    CompareResult result;
    result.axis = axis;
    QStringList labels;
    for (const CompareSource &source : sources) {
        for (const QString &task : source.tasks) {
            if (!result.tasks.contains(task))
                result.tasks.append(task);
        }
    }
    if (result.tasks.size() > 1)
        result.notes.append(QStringLiteral("the sources are of different tasks (%1): their scores are on different scales; "
                                           "compare one task at a time")
                                .arg(result.tasks.join(QStringLiteral(", "))));
    for (const CompareSource &source : sources) {
        qsizetype g = labels.indexOf(source.label);
        if (g < 0) {
            labels.append(source.label);
            result.groups.append(CompareGroup{source.label, {}, {}, {}, 0});
            g = labels.size() - 1;
        }
        std::optional<CompareCurve> curve = curveOf(source, axis);
        if (!curve) {
            const CompareGap gap = gapOf(source, axis);
            result.groups[g].unrecorded.append(CompareLeftOut{source.name, gap, gap == CompareGap::Snapshot ? source.snapshot : std::nullopt});
            switch (gap) {
            case CompareGap::Cost:
                result.notes.append(QStringLiteral("%1: no cost recorded, no USD curve").arg(source.name));
                break;
            case CompareGap::Time:
                result.notes.append(QStringLiteral("%1: no timestamps recorded, no time curve").arg(source.name));
                break;
            case CompareGap::Snapshot:
                result.notes.append(snapshotNote(source.name, *source.snapshot, true));
                break;
            }
            continue;
        }
        if (curve->snapshot) {
            ++result.groups[g].snapshots;
            result.notes.append(snapshotNote(source.name, *curve->snapshot, false));
        }
        result.groups[g].curves.append(int(result.curves.size()));
        result.curves.append(std::move(*curve));
    }
    for (CompareGroup &group : result.groups) {
        if (group.curves.isEmpty())
            continue;
        // The x of every seed's cells, from where all seeds have a best to
        // where the first seed ends.
        double from = -std::numeric_limits<double>::infinity();
        double to = std::numeric_limits<double>::infinity();
        QList<double> xs;
        bool everyoneScored = true;
        for (const int c : std::as_const(group.curves)) {
            const CompareCurve &curve = result.curves.at(c);
            const auto first = std::find_if(curve.points.cbegin(), curve.points.cend(), [](const ComparePoint &p) { return p.best.has_value(); });
            if (first == curve.points.cend()) {
                everyoneScored = false;
                break;
            }
            from = std::max(from, first->x);
            to = std::min(to, curve.points.last().x);
            for (const ComparePoint &p : curve.points)
                xs.append(p.x);
        }
        if (!everyoneScored)
            continue;
        std::sort(xs.begin(), xs.end());
        xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
        QList<qsizetype> at(group.curves.size(), 0); // per seed: the first point past x
        for (const double x : std::as_const(xs)) {
            if (x < from || x > to)
                continue;
            QList<double> values;
            values.reserve(group.curves.size());
            for (qsizetype k = 0; k < group.curves.size(); ++k) {
                const QList<ComparePoint> &points = result.curves.at(group.curves.at(k)).points;
                while (at[k] < points.size() && points.at(at[k]).x <= x)
                    ++at[k];
                // The best after the last cell at or before x (x never decreases along a curve).
                values.append(*points.at(at[k] - 1).best);
            }
            const MeanCi95 m = meanTCi95(values);
            CompareBandPoint p;
            p.x = x;
            p.mean = *m.mean;
            if (m.ci95) {
                p.lo = *m.mean - *m.ci95;
                p.hi = *m.mean + *m.ci95;
            }
            group.band.append(p);
        }
    }
    return result;
}

QList<CompareLeftOut> CompareResult::refusedSnapshots() const
{
    QList<CompareLeftOut> refused;
    for (const CompareGroup &group : groups) {
        for (const CompareLeftOut &left : group.unrecorded) {
            if (left.gap == CompareGap::Snapshot)
                refused.append(left);
        }
    }
    return refused;
}

bool CompareResult::hasIterationCurves() const
{
    return std::any_of(curves.cbegin(), curves.cend(), [](const CompareCurve &c) { return c.snapshot.has_value(); });
}

bool CompareResult::onlyIterationCurves() const
{
    return !curves.isEmpty() && std::all_of(curves.cbegin(), curves.cend(), [](const CompareCurve &c) { return c.snapshot.has_value(); });
}

QStringList CompareCurves::csvHeader()
{
    return {QStringLiteral("label"), QStringLiteral("source"), QStringLiteral("x"),  QStringLiteral("best"),
            QStringLiteral("lo"),    QStringLiteral("hi"),     QStringLiteral("population_snapshot")};
}

QList<QStringList> CompareCurves::csvRows(const CompareResult &result)
{
    QList<QStringList> rows;
    for (const CompareCurve &curve : result.curves) {
        const QString snapshot = curve.snapshot ? snapshotText(*curve.snapshot) : QString();
        for (const ComparePoint &p : curve.points)
            rows.append({curve.label, curve.name, num(p.x), p.best ? num(*p.best) : QString(), QString(), QString(), snapshot});
    }
    for (const CompareGroup &group : result.groups) {
        const QString snapshots =
            group.snapshots > 0 ? QStringLiteral("%1 of %2 seeds").arg(group.snapshots).arg(group.curves.size()) : QString();
        for (const CompareBandPoint &p : group.band)
            rows.append({group.label, QStringLiteral("mean"), num(p.x), num(p.mean), p.lo ? num(*p.lo) : QString(),
                         p.hi ? num(*p.hi) : QString(), snapshots});
    }
    return rows;
}

} // namespace dreamrsi
