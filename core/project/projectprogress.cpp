#include "projectprogress.h"

#include <algorithm>
#include <cmath>

namespace dreamrsi {

ProgressCurve ProjectProgress::curveOf(const QString &label, const QList<IterationData> &iterations)
{
    ProgressCurve curve;
    curve.label = label;
    qint64 calls = 0;
    for (const IterationData &data : iterations) {
        IterationMark mark;
        mark.index = int(curve.marks.size()) + 1;
        mark.iteration = data.info.id;
        mark.startCalls = calls;
        // Cells are stored in seq order; sort a copy anyway so the curve
        // never depends on how the caller gathered them.
        QList<const Cell *> ordered;
        ordered.reserve(data.cells.size());
        for (const Cell &c : data.cells)
            ordered.append(&c);
        std::stable_sort(ordered.begin(), ordered.end(), [](const Cell *a, const Cell *b) { return a->seq < b->seq; });
        for (const Cell *c : std::as_const(ordered)) {
            ++calls;
            if (!c->score || !std::isfinite(*c->score))
                continue;
            if (!curve.best || *c->score > *curve.best) {
                curve.best = *c->score;
                curve.points.append({calls, *c->score});
            }
        }
        mark.calls = calls - mark.startCalls;
        mark.bestAfter = curve.best;
        curve.marks.append(mark);
    }
    curve.totalCalls = calls;
    if (curve.best && curve.points.last().calls < calls)
        curve.points.append({calls, *curve.best});
    return curve;
}

QList<ProgressCurve> ProjectProgress::curvesByTask(const QString &label, const QList<IterationData> &iterations)
{
    QStringList tasks;
    QList<QList<IterationData>> groups;
    for (const IterationData &it : iterations) {
        const QString task = it.info.task.value_or(QString());
        qsizetype at = task.isEmpty() && !tasks.isEmpty() ? 0 : tasks.indexOf(task);
        if (at < 0) {
            tasks.append(task);
            groups.append(QList<IterationData>());
            at = tasks.size() - 1;
        }
        groups[at].append(it);
    }
    QList<ProgressCurve> curves;
    for (qsizetype i = 0; i < groups.size(); ++i) {
        QString name = label;
        if (groups.size() > 1)
            name = label.isEmpty() ? tasks.at(i) : QStringLiteral("%1 — %2").arg(label, tasks.at(i));
        curves.append(curveOf(name, groups.at(i)));
        curves.last().task = tasks.at(i);
    }
    return curves;
}

} // namespace dreamrsi
