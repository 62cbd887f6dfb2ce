#include "behaviourgrid.h"

#include <QJsonValue>
#include <QHash>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace dreamrsi {

namespace {

std::optional<double> finite(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt; // booleans are flags, strings are text
    const double d = v.toDouble();
    return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
}

/// A number in a CSV field: shortest round-trip form.
QString number(double v)
{
    return QString::number(v, 'g', 17);
}

} // namespace

double BehaviourGrid::Axis::edge(int k) const
{
    if (k >= bins)
        return hi;
    return lo + (hi - lo) * k / bins;
}

int BehaviourGrid::Axis::binOf(double v) const
{
    if (!(hi > lo))
        return 0;
    int k = int(std::floor((v - lo) / (hi - lo) * bins));
    k = std::clamp(k, 0, bins - 1);
    // The division may land one bin off at an edge: the edges decide.
    while (k > 0 && v < edge(k))
        --k;
    while (k < bins - 1 && v >= edge(k + 1))
        ++k;
    return k;
}

BehaviourGrid::MetricColumns BehaviourGrid::MetricColumns::of(const DiscoveryTree &tree)
{
    MetricColumns m;
    QHash<QString, int> at;
    const QList<Cell> &cells = tree.cells();
    const qsizetype n = cells.size();
    const auto put = [&](const QString &name, int cell, double v) {
        auto it = at.constFind(name);
        if (it == at.constEnd()) {
            it = at.insert(name, int(m.names.size()));
            m.names.append(name);
            m.values.append(QList<double>(n, std::numeric_limits<double>::quiet_NaN()));
        }
        m.values[*it][cell] = v;
    };
    for (int c = 0; c < int(n); ++c) {
        const QJsonObject metrics = cells.at(c).payload.value(QLatin1String("metrics")).toObject();
        for (auto it = metrics.constBegin(); it != metrics.constEnd(); ++it) {
            if (const std::optional<double> v = finite(it.value())) {
                put(it.key(), c, *v);
            } else if (it.value().isObject()) {
                const QJsonObject inner = it.value().toObject();
                for (auto in = inner.constBegin(); in != inner.constEnd(); ++in) {
                    if (const std::optional<double> v = finite(in.value()))
                        put(it.key() + QLatin1Char('.') + in.key(), c, *v);
                }
            }
        }
    }
    // Sorted by name, the columns with them.
    QList<int> order(m.names.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&m](int a, int b) { return m.names.at(a) < m.names.at(b); });
    MetricColumns sorted;
    for (const int i : std::as_const(order)) {
        sorted.names.append(m.names.at(i));
        sorted.values.append(std::move(m.values[i]));
    }
    return sorted;
}

const QList<double> *BehaviourGrid::MetricColumns::column(const QString &name) const
{
    const qsizetype i = names.indexOf(name);
    return i < 0 ? nullptr : &values.at(i);
}

QStringList BehaviourGrid::numericMetrics(const DiscoveryTree &tree)
{
    return MetricColumns::of(tree).names;
}

std::optional<double> BehaviourGrid::metricValue(const Cell &cell, const QString &metric)
{
    const QJsonObject metrics = cell.payload.value(QLatin1String("metrics")).toObject();
    const QJsonValue direct = metrics.value(metric);
    if (!direct.isUndefined())
        return finite(direct);
    const qsizetype dot = metric.indexOf(QLatin1Char('.'));
    if (dot <= 0)
        return std::nullopt;
    return finite(metrics.value(metric.left(dot)).toObject().value(metric.mid(dot + 1)));
}

Result<BehaviourGrid> BehaviourGrid::build(const DiscoveryTree &tree, const QString &xMetric, const QString &yMetric,
                                           int xBins, int yBins, const QList<int> &keys)
{
    constexpr double None = std::numeric_limits<double>::quiet_NaN();
    QList<double> xs, ys;
    xs.reserve(tree.cellCount());
    ys.reserve(tree.cellCount());
    for (const Cell &c : tree.cells()) {
        xs.append(metricValue(c, xMetric).value_or(None));
        ys.append(metricValue(c, yMetric).value_or(None));
    }
    return build(tree, xMetric, xs, yMetric, ys, xBins, yBins, keys);
}

Result<BehaviourGrid> BehaviourGrid::build(const DiscoveryTree &tree, const MetricColumns &columns, const QString &xMetric,
                                           const QString &yMetric, int xBins, int yBins, const QList<int> &keys)
{
    const QList<double> *xs = columns.column(xMetric);
    const QList<double> *ys = columns.column(yMetric);
    if (!xs)
        return Result<BehaviourGrid>::failure(QStringLiteral("no cell has a numeric metric \"%1\"").arg(xMetric));
    if (!ys)
        return Result<BehaviourGrid>::failure(QStringLiteral("no cell has a numeric metric \"%1\"").arg(yMetric));
    if (xs->size() != tree.cellCount() || ys->size() != tree.cellCount())
        return Result<BehaviourGrid>::failure(QStringLiteral("the metrics were read from another tree"));
    return build(tree, xMetric, *xs, yMetric, *ys, xBins, yBins, keys);
}

Result<BehaviourGrid> BehaviourGrid::build(const DiscoveryTree &tree, const QString &xMetric, const QList<double> &xs,
                                           const QString &yMetric, const QList<double> &ys, int xBins, int yBins,
                                           const QList<int> &keys)
{
    using Built = Result<BehaviourGrid>;
    constexpr int MaxBins = 1000;
    if (xBins < 1 || xBins > MaxBins || yBins < 1 || yBins > MaxBins)
        return Built::failure(QStringLiteral("bins must be 1 to %1 along each axis (got %2 × %3)").arg(MaxBins).arg(xBins).arg(yBins));
    if (!keys.isEmpty() && keys.size() != tree.cellCount())
        return Built::failure(QStringLiteral("%1 slider keys for %2 cells").arg(keys.size()).arg(tree.cellCount()));
    BehaviourGrid g;
    g.m_x.metric = xMetric;
    g.m_y.metric = yMetric;
    g.m_x.bins = xBins;
    g.m_y.bins = yBins;
    QList<std::pair<double, double>> values;
    double xLo = std::numeric_limits<double>::infinity(), xHi = -xLo, yLo = xLo, yHi = -xLo;
    bool anyX = false, anyY = false;
    const QList<Cell> &cells = tree.cells();
    for (int c = 0; c < int(cells.size()); ++c) {
        const std::optional<double> x = std::isnan(xs.at(c)) ? std::nullopt : std::optional<double>(xs.at(c));
        const std::optional<double> y = std::isnan(ys.at(c)) ? std::nullopt : std::optional<double>(ys.at(c));
        anyX = anyX || x;
        anyY = anyY || y;
        if (!x || !y) {
            ++g.m_missing;
            continue;
        }
        xLo = std::min(xLo, *x);
        xHi = std::max(xHi, *x);
        yLo = std::min(yLo, *y);
        yHi = std::max(yHi, *y);
        std::optional<double> score;
        if (cells.at(c).isSuccess() && cells.at(c).score)
            score = cells.at(c).score;
        g.m_samples.append(Sample{c, keys.isEmpty() ? cells.at(c).seq : keys.at(c), 0, 0, score});
        values.append({*x, *y});
        if (score) {
            g.m_scoreMin = std::min(g.m_scoreMin.value_or(*score), *score);
            g.m_scoreMax = std::max(g.m_scoreMax.value_or(*score), *score);
        }
    }
    if (!anyX)
        return Built::failure(QStringLiteral("no cell has a numeric metric \"%1\"").arg(xMetric));
    if (!anyY)
        return Built::failure(QStringLiteral("no cell has a numeric metric \"%1\"").arg(yMetric));
    if (g.m_samples.isEmpty())
        return Built::failure(QStringLiteral("no cell has both \"%1\" and \"%2\"").arg(xMetric, yMetric));
    g.m_x.lo = xLo;
    g.m_x.hi = xHi;
    g.m_y.lo = yLo;
    g.m_y.hi = yHi;
    g.m_firstKey = std::numeric_limits<qint64>::max();
    g.m_lastKey = std::numeric_limits<qint64>::min();
    for (int s = 0; s < int(g.m_samples.size()); ++s) {
        Sample &sample = g.m_samples[s];
        sample.i = g.m_x.binOf(values.at(s).first);
        sample.j = g.m_y.binOf(values.at(s).second);
        g.m_firstKey = std::min(g.m_firstKey, sample.key);
        g.m_lastKey = std::max(g.m_lastKey, sample.key);
    }
    g.m_bins.resize(qsizetype(xBins) * yBins);
    g.fill(g.m_lastKey);
    return Built::success(std::move(g));
}

void BehaviourGrid::fill(qint64 upTo)
{
    for (Bin &b : m_bins) {
        b.cells.clear();
        b.best = -1;
        b.bestScore.reset();
    }
    m_filled = 0;
    m_upTo = upTo;
    for (const Sample &s : std::as_const(m_samples)) {
        if (s.key > upTo)
            continue;
        Bin &b = m_bins[s.j * m_x.bins + s.i];
        b.cells.append(s.cell);
        ++m_filled;
        if (s.score && (!b.bestScore || *s.score > *b.bestScore)) {
            b.best = s.cell;
            b.bestScore = s.score;
        }
    }
}

QStringList BehaviourGrid::csvHeader()
{
    return {QStringLiteral("x_bin"), QStringLiteral("y_bin"), QStringLiteral("x_lo"), QStringLiteral("x_hi"),
            QStringLiteral("y_lo"), QStringLiteral("y_hi"), QStringLiteral("count"), QStringLiteral("best_score"),
            QStringLiteral("best_cell"), QStringLiteral("cells")};
}

QList<QStringList> BehaviourGrid::rows(const DiscoveryTree &tree) const
{
    QList<QStringList> rows;
    rows.reserve(qsizetype(m_x.bins) * m_y.bins);
    for (int j = 0; j < m_y.bins; ++j) {
        for (int i = 0; i < m_x.bins; ++i) {
            const Bin &b = bin(i, j);
            QStringList ids;
            ids.reserve(b.cells.size());
            for (const int c : b.cells)
                ids.append(tree.cells().at(c).id);
            rows.append({QString::number(i), QString::number(j), number(m_x.edge(i)), number(m_x.edge(i + 1)),
                         number(m_y.edge(j)), number(m_y.edge(j + 1)), QString::number(b.cells.size()),
                         b.bestScore ? number(*b.bestScore) : QString(), b.best >= 0 ? tree.cells().at(b.best).id : QString(),
                         ids.join(QLatin1Char(' '))});
        }
    }
    return rows;
}

QString BehaviourGrid::toCsv(const DiscoveryTree &tree) const
{
    // Ids are [A-Za-z0-9_-] in practice; a field with a comma or quote is quoted anyway.
    const auto field = [](const QString &f) -> QString {
        if (!f.contains(QLatin1Char(',')) && !f.contains(QLatin1Char('"')) && !f.contains(QLatin1Char('\n')))
            return f;
        return QLatin1Char('"') + QString(f).replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    };
    QString csv = csvHeader().join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const QStringList &row : rows(tree)) {
        QStringList fields;
        for (const QString &f : row)
            fields.append(field(f));
        csv += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

} // namespace dreamrsi
